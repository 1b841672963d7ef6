// Sideways propagation between operands (aggressive strategy) is held back only for
// elementwise ops (StableHLO's Elementwise trait), where an operand gets only what a
// result has. Other ops with a pointwise rule propagate sideways, as in Shardy: the
// custom call's rule moves %arg0's "p" to %arg1 although its first result is closed
// and whole. (Propagation only: the call target does not run on CPU.)
//
// RUN: shardpy-opt %s --shardpy-propagate=strategy=aggressive | FileCheck %s

sdy.mesh @mesh = <["p"=2, "q"=2]>
// CHECK-LABEL: func.func @sideways(
// CHECK-SAME:    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}]>}
// CHECK-NEXT:    stablehlo.custom_call @X64SplitLow(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"p"}]>]>
func.func @sideways(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}]>},
                    %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>})
    -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = stablehlo.custom_call @X64SplitLow(%a, %b) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{?}]>]>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}
