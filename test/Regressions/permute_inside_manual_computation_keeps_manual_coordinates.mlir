// A reshard inside a manual computation lowered to a collective_permute: the body's
// shardings name only the free axes ("a" to "c" here; "b" is manual), and the permute's
// pairs took a device's block from any device holding that free-axes block, across "b"
// too, where devices hold different values (the manual shards): device 3 (a=0, b=1,
// c=1) read device 5 (a=1, b=0, c=1), device 5 read device 6. Half the result was
// another manual shard's (fuzz seed 9600260 under the bytes-only profile, where the
// planner prefers the permute to an all_gather and a slice; reduced). Now a device
// reads one at its own coordinates on the manual axes (device_groups.permute_rounds'
// `fixed`): (a, b, c) reads (c, b, a).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// CHECK: stablehlo.collective_permute
// CHECK-SAME: source_target_pairs = dense<{{\[}}[0, 0], [4, 1], [2, 2], [6, 3], [1, 4], [5, 5], [3, 6], [7, 7]]>
// EXEC: check: PASS
module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func public @main(%arg0: tensor<4x64xf32>) -> tensor<8x32xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<64xf32>
    %1:2 = sdy.manual_computation(%arg0, %0) in_shardings=[<@mesh, [{}, {"b", "a"}]>, <@mesh, [{"b", "a", "c"}]>] out_shardings=[<@mesh, [{"b"}, {"c"}]>, <@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<4x32xf32>, %arg2: tensor<32xf32>) {
      %2 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1001, type = 1>, replica_groups = dense<[[0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
        %4 = stablehlo.add %arg3, %arg4 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<4x32xf32>) -> tensor<4x32xf32>
      %3 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1002, type = 1>, replica_groups = dense<[[0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
        %4 = stablehlo.add %arg3, %arg4 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<4x32xf32>) -> tensor<4x32xf32>
      sdy.return %3, %2 : tensor<4x32xf32>, tensor<4x32xf32>
    } : (tensor<4x64xf32>, tensor<64xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>)
    return %1#0 : tensor<8x32xf32>
  }
}
