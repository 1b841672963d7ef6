// stablehlo.concatenate along a sharded dim: a concatenate of slices of one array (a
// rotation) keeps the concatenated dim sharded on "x", as do its slices: each shard is
// shifted in from its neighbours (test/ToLocal/concatenate.mlir); a concatenate of
// unrelated arrays is gathered instead (need_replication.mlir).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK-NEXT:    %[[A:.*]] = stablehlo.slice %arg0 [0:2, 2:32] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    %[[B:.*]] = stablehlo.slice %arg0 [0:2, 0:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    %[[C:.*]] = stablehlo.concatenate %[[A]], %[[B]], dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    return %[[C]]
func.func public @main(%arg0: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:2, 2:32] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x32xf32>) -> tensor<2x30xf32>
  %1 = stablehlo.slice %arg0 [0:2, 0:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x32xf32>) -> tensor<2x2xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x30xf32>, tensor<2x2xf32>) -> tensor<2x32xf32>
  return %2 : tensor<2x32xf32>
}
