// sdy.reshard: an explicit layout change; nothing flows across it in either
// direction, open dims of its own sharding included. Same as the native
// sdy-propagation-pipeline.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @nothing_crosses_forward(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %1 = sdy.reshard %0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK:         %2 = stablehlo.exponential %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @nothing_crosses_forward(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@mesh_x2_y4, [{"x", ?}, {?}]> : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @nothing_crosses_backward(
// CHECK-SAME:    %arg0: tensor<8x16xf32>)
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
// CHECK:         %1 = sdy.reshard %0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK:         %2 = stablehlo.exponential %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @nothing_crosses_backward(%a: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
