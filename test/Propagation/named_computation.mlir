// sdy.named_computation: transparent, both ways (block args tied to operands,
// results to what the body returns). No native oracle in this jaxlib: the native
// pipeline fails on these modules ("'sdy.data_flow_edge' op expected input of
// sdy.data_flow_edge to not be defined by an SdyDialect op"), and the standalone
// sdy-user-priority-propagate (without data flow edges) propagates nothing through;
// the checks pin the identity semantics Shardy documents.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @through_named_computation(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %0 = sdy.named_computation<"block">(%arg0) (%arg1: tensor<8x16xf32>) {
// CHECK:         %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @through_named_computation(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.named_computation<"block">(%a) (%arg1: tensor<8x16xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x16xf32>
    sdy.return %1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.exponential %0 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @backward_into_named_computation(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         %0 = sdy.named_computation<"block">(%arg0) (%arg1: tensor<8x16xf32>) {
// CHECK:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @backward_into_named_computation(%a: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) {
  %0 = sdy.named_computation<"block">(%a) (%arg1: tensor<8x16xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x16xf32>
    sdy.return %1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
