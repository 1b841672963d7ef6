// stablehlo.slice along a sharded dim: the sliced dim stays sharded on "x": each
// device's part of the slice is shifted in from the shards that hold it
// (test/ToLocal/slice.mlir), so no operand is gathered.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK-NEXT:    %[[S:.*]] = stablehlo.slice %arg0 [0:2, 4:20] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    return %[[S]]
func.func public @main(%arg0: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:2, 4:20] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x32xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}
