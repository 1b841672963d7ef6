// sdy.manual_computation: free axes flow through in_shardings / out_shardings (where
// open) into and out of the body; manual axes never appear inside the body and the
// outside keeps them major-most; partially manual (two of three axes manual). Same as
// the native sdy-propagation-pipeline on every chunk.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @free_axis_flows_in_and_out(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y4, [{"x"}, {"y"}]>] out_shardings=[<@mesh_x2_y4, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
// CHECK:         %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @free_axis_flows_in_and_out(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh_x2_y4, [{"x"}, {?}]>] out_shardings=[<@mesh_x2_y4, [{"x"}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.exponential %0 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @manual_axis_stays_outside(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>})
// CHECK:         %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y4, [{"x", "y"}, {}]>] out_shardings=[<@mesh_x2_y4, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
// CHECK:         %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// CHECK:         %3 = sdy.sharding_constraint %2 <@mesh_x2_y4, [{"y"}, {}]> : tensor<4x16xf32>
// CHECK:         %4 = stablehlo.exponential %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// CHECK:         %1 = stablehlo.sine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x", "y"}, {}]>]>
func.func @manual_axis_stays_outside(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh_x2_y4, [{"x", ?}, {?}]>] out_shardings=[<@mesh_x2_y4, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4x16xf32>
    %2 = sdy.sharding_constraint %1 <@mesh_x2_y4, [{"y"}, {}]> : tensor<4x16xf32>
    %3 = stablehlo.exponential %2 : tensor<4x16xf32>
    sdy.return %3 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = stablehlo.sine %0 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @body_sharding_flows_out(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y4, [{"x"}, {"y"}]>] out_shardings=[<@mesh_x2_y4, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
// CHECK:         %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %3 = sdy.sharding_constraint %2 <@mesh_x2_y4, [{}, {"y"}]> : tensor<4x16xf32>
// CHECK:         %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @body_sharding_flows_out(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh_x2_y4, [{"x"}, {?}]>] out_shardings=[<@mesh_x2_y4, [{"x"}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4x16xf32>
    %2 = sdy.sharding_constraint %1 <@mesh_x2_y4, [{}, {"y"}]> : tensor<4x16xf32>
    sdy.return %2 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = stablehlo.exponential %0 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y2_z2 = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func @partially_manual(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_z2, [{"x", "z"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_z2, [{"x", "z"}, {"y"}]>})
// CHECK:         %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2_z2, [{"x", "z"}, {"y"}]>] out_shardings=[<@mesh_x2_y2_z2, [{"x", "z"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
// CHECK:         %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y2_z2, [{"z"}, {}]>]>
// CHECK:         %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y2_z2, [{"x", "z"}, {"y"}]>]>
func.func @partially_manual(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2_z2, [{"x", "z"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh_x2_y2_z2, [{"x", ?}, {"y", ?}]>] out_shardings=[<@mesh_x2_y2_z2, [{"x", ?}, {"y", ?}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.exponential %0 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
