// Dims whose factor is a need-replication factor (here the concatenated dim of a
// concatenate of two unrelated arrays) are never computed sharded, even where the
// propagated shardings say so: the operands' sharded dim is replicated first (here
// "y" on dim 1), the op runs with that dim whole and its other dims as they were
// ("x"), and the result is resharded back to the propagated sharding. Permutation
// factors (the padded dim here; sliced, reversed, windowed dims, a concatenate of
// slices of one array) stay sharded, computed with halo exchanges (test/Windowed/).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[PAD:.*]] = stablehlo.pad %arg0, {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x24xf32>
// CHECK-NEXT:    %[[CA:.*]] = sdy.reshard %arg1 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[CB:.*]] = sdy.reshard %arg2 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[CAT:.*]] = stablehlo.concatenate %[[CA]], %[[CB]], dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>}
// CHECK-NEXT:    %[[R2:.*]] = sdy.reshard %[[CAT]] <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x32xf32>
// CHECK-NEXT:    return %[[PAD]], %[[R2]]
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %c: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %d: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
        tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %a, %zero, low = [0, 4], high = [0, 4], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x24xf32>
  %2 = stablehlo.concatenate %c, %d, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  return %0, %2 : tensor<8x24xf32>, tensor<8x32xf32>
}
