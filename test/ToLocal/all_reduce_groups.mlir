// sdy.all_reduce -> stablehlo.all_reduce (sum) over replica groups of logical device
// ids: on ["x"=2, "y"=4] (device = 4*x + y), reducing over "y" groups the devices that
// share x, over "x" those that share y, over both all 8. Each collective gets its own
// channel handle, and global device ids.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:       %[[P:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} -> tensor<4x32xf32>
// CHECK-NEXT:  "stablehlo.all_reduce"(%[[P]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT:  ^bb0(%[[L:.*]]: tensor<f32>, %[[R:.*]]: tensor<f32>):
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[L]], %[[R]] : tensor<f32>
// CHECK-NEXT:    stablehlo.return %[[S]] : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK:       %[[Q:.*]] = stablehlo.dot_general %arg2, %arg3, {{.*}} -> tensor<8x8xf32>
// CHECK-NEXT:  "stablehlo.all_reduce"(%[[Q]]) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}>
// CHECK:       %[[T:.*]] = stablehlo.dot_general %arg4, %arg5, {{.*}} -> tensor<8x32xf32>
// CHECK-NEXT:  "stablehlo.all_reduce"(%[[T]]) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}>
// CHECK-NOT:   sdy.all_reduce
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>},
                       %v: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %c: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x", "y"}]>},
                       %u: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>})
    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
        tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>},
        tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}]>}) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x32xf32>
  %2 = stablehlo.dot_general %b, %v, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh_x2_y4, [{}, {"y"}]> : tensor<8x32xf32>
  %4 = stablehlo.dot_general %c, %u, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {}], unreduced={"x", "y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %5 = sdy.all_reduce {"x", "y"} %4 out_sharding=<@mesh_x2_y4, [{}, {}]> : tensor<8x32xf32>
  return %1, %3, %5 : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}
