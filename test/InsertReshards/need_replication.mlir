// Dims whose factor is a need-replication factor (here the concatenated dim of a
// concatenate of two unrelated arrays) are never computed sharded, even where the
// propagated shardings say so: the operands' sharded dim is replicated first, the
// op runs with that dim whole and its other dims as they were, and the result is
// resharded back to the propagated sharding. Where another dim can take the axes
// of a need-replication dim and that moves fewer bytes, they move there instead
// (here "y" joins "x" on dim 0, all_to_alls of 48 B per operand and 96 B back,
// instead of all_gathers of 192 B per operand). Permutation factors (the padded dim
// here; sliced, reversed, windowed dims, a concatenate of slices of one array) stay
// sharded, computed with halo exchanges (test/Partition/windowed_*.mlir).
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[PAD:.*]] = stablehlo.pad %arg0, {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x24xf32>
// CHECK-NEXT:    %[[CA:.*]] = sdy.reshard %arg1 <@mesh_x2_y4, [{"x", "y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[CB:.*]] = sdy.reshard %arg2 <@mesh_x2_y4, [{"x", "y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[CAT:.*]] = stablehlo.concatenate %[[CA]], %[[CB]], dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x", "y"}, {}]>]>}
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
