// Found by test/fuzz (zero_dims: seeds 900904, 900921 and 901540 of `run_fuzz.py
// --seed 900000 --count 2000 --disable known`), minimized. %a is sharded on "x" along
// its empty dim; gathering it for the constraint is no collective (StableHLO rejects
// an all_gather along a dim of size zero), and shardpy-to-local returned the operand
// itself as the gathered value, so recording the result's sharding (replicated)
// overwrote %a's: the reverse of %a then failed ("'stablehlo.reverse' cannot be
// computed on the shards insert-reshards chose") and the all_to_all of %a for the
// last result found no dim losing an axis (StopIteration, an internal error). A
// collective with nothing to exchange now gives an empty value of its own.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %[[A:.*]]: tensor<8x0xf32>
// CHECK-NOT:     all_gather
// CHECK:         %[[G:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x0xf32>
// CHECK:         stablehlo.negate %[[G]] : tensor<8x0xf32>
// CHECK:         stablehlo.reverse %[[A]], dims = [0, 1] : tensor<8x0xf32>
// CHECK:         "stablehlo.all_to_all"{{.*}} : (tensor<8x0xf32>) -> tensor<4x0xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.sharding_constraint %a <@mesh, [{}, {}]> : tensor<8x0xf32>
  %1 = stablehlo.negate %0 : tensor<8x0xf32>
  %2 = stablehlo.reverse %a, dims = [0, 1] : tensor<8x0xf32>
  return %1, %2, %a : tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x0xf32>
}
