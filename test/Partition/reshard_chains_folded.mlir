// Consecutive reshards of one value are planned as one: the concatenate (along its
// dim 0, sharded on "x") is computed whole, its result resharded to its propagated
// [{"x"}, {}] and, for the replicated func result, back again; folded, that round
// trip is nothing, so two all_gathers (the operands) suffice.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

// CHECK-COUNT-2: "stablehlo.all_gather"
// CHECK-NOT:     "stablehlo.all_gather"
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>})
    -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {}]>}) {
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
