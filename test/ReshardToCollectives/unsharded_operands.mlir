// sdy's verifier rejects a collective whose operand has no sharding ("collective on
// operand without sharding"); unannotated values are replicated, so the pass says so
// where sdy reads the operand's sharding: a func argument's attributes, the defining
// op's sdy.sharding, or the while's sdy.sharding for the while's block arguments (a
// while that carries no sharding gets one, replicated for all its results).
// RUN: shardpy-opt %s --split-input-file --shardpy-reshard-to-collectives | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @func_arg(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}]>})
// CHECK-NEXT:    sdy.all_slice [{"x"}, {}] %arg0
func.func @func_arg(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @op_result(
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {}]>]>}
// CHECK-NEXT:    sdy.all_slice [{"x"}, {}] %[[N]]
func.func @op_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// A carry of an unannotated while made partial in the body (seed 205108 of the fuzzer:
// a scatter-add's operand counted once).
// CHECK-LABEL: func.func @while_block_arg(
// CHECK:         stablehlo.while(%[[I:.*]] = %{{.*}}, %[[X:.*]] = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, []>, <@mesh_x2_y4, [{}, {}]>]>}
// CHECK:         } do {
// CHECK-NEXT:      sdy.replicated_to_unreduced {"y"} %[[X]] out_sharding=<@mesh_x2_y4, [{}, {}], unreduced={"y"}>
func.func @while_block_arg(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %x = %arg0) : tensor<i32>, tensor<8x16xf32>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %1 = sdy.reshard %x <@mesh_x2_y4, [{}, {}], unreduced={"y"}> : tensor<8x16xf32>
    %2 = sdy.reshard %1 <@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %3, %2 : tensor<i32>, tensor<8x16xf32>
  }
  return %0#1 : tensor<8x16xf32>
}
