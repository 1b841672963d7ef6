// stablehlo.pad along a sharded dim: the padded dim stays sharded on "x": each device's
// part of the padded result is computed from its shard plus halos from its neighbours
// (test/ToLocal/pad.mlir), so no operand is gathered.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 4], high = [0, 4], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    return %[[P]]
func.func public @main(%arg0: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
  %0 = stablehlo.pad %arg0, %cst, low = [0, 4], high = [0, 4], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x16xf32>, tensor<f32>) -> tensor<2x24xf32>
  return %0 : tensor<2x24xf32>
}
