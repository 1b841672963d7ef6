// A reverse along a sharded dim: device d's result block is the mirror device's (3 - d)
// block reversed, so one collective_permute swaps mirror blocks and the local reverse
// follows.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[P:.*]] = "stablehlo.collective_permute"(%arg0) <{{.*}}source_target_pairs = dense<{{\[\[}}3, 0], [2, 1], [1, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reverse %[[P]], dims = [1] : tensor<2x8xf32>
// CHECK-NEXT:    return %[[R]] : tensor<2x8xf32>
func.func public @main(%arg0: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.reverse %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}
