// XFAIL: *
// BUG (wasted communication): consecutive reshards of one value are lowered one by one.
// The concatenate is along its dim 0, which is sharded on "x": insert-reshards gathers
// both operands and computes it whole (right), then reshards the result to its
// propagated sharding [{"x"}, {}] (an all_slice), and the return reshards that back
// to the replicated result sharding: a third all_gather, of the whole 16x16 result
// (512 of the 1024 bytes per device this program sends). reshard(reshard(v, S1), S2)
// should be planned as reshard(v, S2) (here: nothing). Two all_gathers suffice.
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
