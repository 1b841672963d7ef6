// XFAIL: *
// BUG: an operand used twice (or by several ops) that needs the same reshard gets one
// sdy.reshard per use, so the collective is emitted once per use. Here the concatenate
// needs %arg0 whole on dim 0 (a permutation factor), and %arg0 is all-gathered twice,
// doubling the communication (2 x 256 bytes per device instead of 256). Same in
// loop bodies (`add %x, %x` reshards %x twice) and across ops (pad, slice and
// concatenate of one value each gather it). insert-reshards should reuse the first
// reshard of a value to a given sharding (in the same block, dominating the use).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=PART

sdy.mesh @mesh_x2 = <["x"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = sdy.reshard %arg0 <@mesh_x2, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    stablehlo.concatenate %[[A]], %[[A]], dim = 0
// PART-COUNT-1: stablehlo.all_gather
// PART-NOT:     stablehlo.all_gather
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>})
    -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {}]>}) {
  %0 = stablehlo.concatenate %a, %a, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
