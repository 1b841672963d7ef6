// Op-priority propagation follows Shardy's schedule of five levels: (0) pass-through
// ops (elementwise, reshape, transpose; dynamic slices forwards only) none of whose
// operands has another use, (1) all pass-through ops, (2) every op along its
// pass-through factors, broadcasts only backwards, (3) every op, broadcasts only
// backwards, (4) everything. Deferring ops with a shared operand keeps one sharding
// from being pushed into each user of the operand before the users' own demands
// arrive: %t feeds two exponentials, each negated and returned sharded along dim 1.
// At level 0 the negates (operands used once) take dim 1 from the results and give it
// to the exponentials' results; the exponentials (their operand %t is shared) wait, and
// then meet a conflict they leave alone. Without the deferral dim 0 of %arg0 would have
// flowed through %t into both exponentials first (a reshard after each of them).
//
// RUN: shardpy-opt %s --shardpy-propagate=strategy=op-priority | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    stablehlo.negate %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %t = stablehlo.tanh %a : tensor<8x8xf32>
  %0 = stablehlo.exponential %t : tensor<8x8xf32>
  %1 = stablehlo.exponential %t : tensor<8x8xf32>
  %2 = stablehlo.negate %0 : tensor<8x8xf32>
  %3 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
