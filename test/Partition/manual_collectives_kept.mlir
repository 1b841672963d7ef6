// Collectives a fully manual computation (shard_map) already holds are per-device code:
// kept as they are, with no "computed replicated" warning and nothing added around them.
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s --check-prefix=IR
// CHECK-NOT: warning
// CHECK: check: PASS
// IR-NOT: warning
// IR-COUNT-2: "stablehlo.all_to_all"
// IR-NOT: "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4]>
func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x8xf32>) {
    %1 = "stablehlo.all_to_all"(%a) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4x8xf32>) -> tensor<16x2xf32>
    %2 = "stablehlo.all_to_all"(%1) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<16x2xf32>) -> tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
