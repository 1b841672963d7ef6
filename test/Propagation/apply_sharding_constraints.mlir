// A closed sharding constraint is applied to its unsharded input (as Shardy's
// sdy-apply-sharding-constraints does) when no other constraint or manual computation
// wants that input differently; the checks are what the native pipeline gives.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @closed_constraint_is_applied_to_its_input(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %1 = {{sdy.sharding_constraint|sdy.reshard}} %0 <@mesh_x2_y4, [{"x"}, {}]>
// CHECK:         stablehlo.exponential %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @closed_constraint_is_applied_to_its_input(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// The applied sharding is closed: nothing else reaches the constraint's input.
// CHECK-LABEL: func @closed_constraint_closes_its_input(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %1 = {{sdy.sharding_constraint|sdy.reshard}} %0 <@mesh_x2_y4, [{"x"}, {}]>
func.func @closed_constraint_closes_its_input(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// manual_computation in_shardings are applied the same way.
// CHECK-LABEL: func @manual_in_sharding_is_applied_to_operand(
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @manual_in_sharding_is_applied_to_operand(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{?}, {"y", ?}]>}) -> tensor<8x16xf32> {
  %n = stablehlo.negate %a : tensor<8x16xf32>
  %0 = sdy.manual_computation(%n) in_shardings=[<@mesh_x2_y4, [{"x"}, {}]>] out_shardings=[<@mesh_x2_y4, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.exponential %arg1 : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
