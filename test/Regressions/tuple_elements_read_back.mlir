// Elements put into a stablehlo.tuple and read back with get_tuple_element (what HLO
// converted to StableHLO keeps of tuple-shaped values). Propagation gave the tuple
// op itself a sharding, which sdy's verifier rejects for a tuple of several elements
// ("ops can only have a sharding for a tuple of size 1"): shardpy-opt and shardpy-run
// failed. shardpy-propagate now reads each element as the value put in
// (prescan.fold_tuple_reads), and the tuple, read no more, goes.
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// CHECK-NOT: stablehlo.tuple
// CHECK-NOT: get_tuple_element
// CHECK: stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK: stablehlo.add %arg0, %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// EXEC: check: PASS
sdy.mesh @mesh = <["x"=8]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<8x16xf32>, tensor<16xf32>>
  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8x16xf32>, tensor<16xf32>>) -> tensor<8x16xf32>
  %2 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<8x16xf32>, tensor<16xf32>>) -> tensor<16xf32>
  %3 = stablehlo.sine %1 : tensor<8x16xf32>
  %4 = stablehlo.cosine %2 : tensor<16xf32>
  %5 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8x16xf32>, tensor<16xf32>>) -> tensor<8x16xf32>
  %6 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %7 = stablehlo.add %5, %6 : tensor<8x16xf32>
  return %3, %4, %7 : tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>
}
