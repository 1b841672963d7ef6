// Explicit cross-partition collectives (a channel handle, global device ids) outside
// manual code follow XLA's semantics: such an op works on whole values, every device
// contributing its whole copy (XLA partitions a replicated one as is). %b is
// replicated: each pair of devices sums its two copies (2 x %b). %a is sharded: it is
// gathered first, with a warning, and then summed over all four devices (4 x %a), as
// XLA's own partitioner computes it. The single-device program has no meaning here
// (the groups name devices), so --check compares with XLA's partitioner.
//
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// CHECK: warning: 'stablehlo.all_reduce' is computed replicated
// CHECK-LABEL: func.func @main(
// CHECK:         "stablehlo.all_reduce"(%arg1) {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]>
// CHECK:         %[[WHOLE:.*]] = "stablehlo.all_gather"(%arg0)
// CHECK-SAME:      (tensor<2xf32>) -> tensor<8xf32>
// CHECK:         "stablehlo.all_reduce"(%[[WHOLE]]) {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]>
// EXEC: reference: XLA's SPMD partitioner
// EXEC: out0: max abs error 0 ok
// EXEC: out1: max abs error 0 ok
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = "stablehlo.all_reduce"(%b) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      use_global_device_ids} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
      use_global_device_ids} : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
