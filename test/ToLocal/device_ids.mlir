// A mesh with an explicit device order: device_ids=[3, 2, 1, 0] puts logical device 3
// at ("x"=0, "y"=0), 2 at (0, 1), 1 at (1, 0), 0 at (1, 1). Replica groups list
// logical ids in mesh order: over "y" [[3, 2], [1, 0]], over "x" [[3, 1], [2, 0]]; the
// all_slice table is indexed by logical id (partition id): dim 0 on "x" starts at 4x,
// so [4, 4, 0, 0] for devices 0..3.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y2_reversed = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

// CHECK-LABEL: func.func public @main(
// CHECK:       %[[P:.*]] = stablehlo.dot_general %arg0, %arg1
// CHECK-NEXT:  "stablehlo.all_reduce"(%[[P]]) <{{.*}}replica_groups = dense<{{\[\[}}3, 2], [1, 0]]> : tensor<2x2xi64>
// CHECK:       "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}3, 1], [2, 0]]> : tensor<2x2xi64>
// CHECK:       stablehlo.constant dense<[4, 4, 0, 0]> : tensor<4xi32>
// CHECK:       stablehlo.dynamic_slice %arg2, {{.*}} sizes = [4, 8] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
func.func public @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_reversed, [{"x"}, {"y"}]>},
                       %w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_reversed, [{"y"}, {}]>},
                       %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_reversed, [{}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_reversed, [{"x"}, {}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_reversed, [{}, {"y"}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_reversed, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y2_reversed, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh_x2_y2_reversed, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh_x2_y2_reversed, [{}, {"y"}]> : tensor<8x8xf32>
  %3 = sdy.all_slice [{"x"}, {}] %b out_sharding=<@mesh_x2_y2_reversed, [{"x"}, {}]> : tensor<8x8xf32>
  return %1, %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
