// GSPMD input whose only shardings are {replicated} and {manual} (fuzz seed 2207525,
// found through the fuzzer's GSPMD round trip): nothing tiled says how many devices
// there are, and the import made an empty mesh, so the manual region (manual over
// every partition) had no manual axes and its all_reduce over 4 devices summed one
// value: -a^2 came out where -4 a^2 was right. `{manual}` is manual over all
// mhlo.num_partitions devices: the import now gives them a mesh of one axis.
//
// RUN: shardpy-opt %s --shardpy-import | FileCheck %s
// CHECK: sdy.mesh @mesh = <["axis_0"=4]>
// CHECK: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"axis_0"}
//
// Run on the 4 devices against XLA's own partitioning of the same module:
// RUN: shardpy-run %s --devices 4 --check | FileCheck %s --check-prefix=EXEC
// EXEC: reference: XLA's SPMD partitioner
// EXEC: check: PASS

module @manual_all_reduce attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32> {mhlo.sharding = "{replicated}"}) -> tensor<10xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<10xf32>) -> tensor<10xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<10xf32>) -> tensor<10xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<10xf32>) -> tensor<10xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<10xf32>
    %4 = stablehlo.negate %3 : tensor<10xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<10xf32>) -> tensor<10xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<10xf32>) -> tensor<10xf32>
    return %6 : tensor<10xf32>
  }
}
