// sdy.all_gather -> one stablehlo.all_gather per gathered dim, over the replica groups
// of that dim's axes: dim 0 over "x" ([[0, 4], [1, 5], [2, 6], [3, 7]]), then dim 1
// over "y" ([[0, 1, 2, 3], [4, 5, 6, 7]]); local shapes grow by the group size.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:  %[[G0:.*]] = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %[[G1:.*]] = "stablehlo.all_gather"(%[[G0]]) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  return %[[G1]] : tensor<8x16xf32>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}]>}) {
  %0 = sdy.all_gather [{"x"}, {"y"}] %a out_sharding=<@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
