// The aggressive strategy settles a conflict between factors in favour of the factor
// whose source tensor is largest; for an elementwise op (StableHLO's Elementwise
// trait) next the factor sharded over more devices, as in Shardy. Here both operands
// of the add are the same size: %arg1 shards dim 0 over 4 devices ("q", "p"), %arg0
// dim 1 over 2 ("p"). "p" can shard only one of them: dim 0 wins, with both axes.
// (Sideways propagation for ops that are not elementwise: aggressive_sideways.mlir.)
//
// RUN: shardpy-opt %s --shardpy-propagate=strategy=aggressive | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"q", "p"}, {}]>})
// CHECK-NEXT:    stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"q", "p"}, {}]>]>}
sdy.mesh @mesh = <["p"=2, "q"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"p"}]>},
                        %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"q", "p"}, {}]>})
    -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
