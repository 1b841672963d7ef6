// sdy.reduce_scatter -> stablehlo.reduce_scatter (sum) on the scattered dim over the
// scattering axis' groups: partial sums over "y" of an 8x32 value, each device keeping
// its quarter of dim 1.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:       %[[P:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} -> tensor<4x32xf32>
// CHECK-NEXT:  %[[RS:.*]] = "stablehlo.reduce_scatter"(%[[P]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK-NEXT:  ^bb0(%[[L:.*]]: tensor<f32>, %[[R:.*]]: tensor<f32>):
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[L]], %[[R]] : tensor<f32>
// CHECK-NEXT:    stablehlo.return %[[S]] : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4x32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[RS]] : tensor<4x8xf32>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = sdy.reduce_scatter [{}, {"y"}] %0 out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
