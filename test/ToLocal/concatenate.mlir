// A rotation by 2 (concatenate of slices [2:32] and [0:2] of one array) along a sharded
// dim: each device's block is its own last 6 columns plus the next device's first 2,
// the last device's 2 from device 0: one collective_permute wrapping around (1 -> 0,
// 2 -> 1, 3 -> 2, 0 -> 3) and one concatenate, as XLA does (it once took a second
// permute for the wrap and a select on the global column).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[OWN:.*]] = stablehlo.slice %arg0 [0:2, 2:8] : (tensor<2x8xf32>) -> tensor<2x6xf32>
// CHECK:         %[[NEXT:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[OUT:.*]] = stablehlo.concatenate %[[OWN]], %[[NEXT]], dim = 1 : (tensor<2x6xf32>, tensor<2x2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    return %[[OUT]] : tensor<2x8xf32>
func.func public @main(%arg0: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:2, 2:32] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x32xf32>) -> tensor<2x30xf32>
  %1 = stablehlo.slice %arg0 [0:2, 0:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x32xf32>) -> tensor<2x2xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x30xf32>, tensor<2x2xf32>) -> tensor<2x32xf32>
  return %2 : tensor<2x32xf32>
}
