// An operand used twice (or by several ops) that needs the same layout gets one
// sdy.reshard, made before its first user and reused by the users that block
// dominates: the concatenate's %arg0 is gathered once, loop bodies reshard once, and
// pad, slice and concatenate of one value share its gather.
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
