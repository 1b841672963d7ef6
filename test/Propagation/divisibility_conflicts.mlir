// Divisibility: an axis may shard a dim it does not divide when the dim is a single
// (minor-most) factor (padding); a non-minor-most factor takes only the part of an
// axis that divides it, and nothing when they are coprime. One axis is never used
// twice in a tensor: when two factors want the same axis, none gets it (the operands
// here are closed) or the larger tensor's factor wins (aggressive, the default).
// Native difference, legitimate: the native pipeline's export rewrites the main
// function's non-divisible / sub-axis boundary shardings (see reshape.mlir); every
// chunk agrees with native propagation without those two passes.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x4 = <["x"=4]>

// CHECK-LABEL: func @non_divisible_single_factor_dim(
// CHECK-SAME:    %arg0: tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}, {}]>})
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4, [{"x"}, {}]>]>
func.func @non_divisible_single_factor_dim(%a: tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}, {}]>}) -> tensor<6x16xf32> {
  %0 = stablehlo.negate %a : tensor<6x16xf32>
  return %0 : tensor<6x16xf32>
}

// -----

sdy.mesh @mesh_x4 = <["x"=4]>

// CHECK-LABEL: func @non_minor_factor_takes_divisible_part(
// CHECK-SAME:    %arg0: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}]>}
// CHECK-SAME:    -> (tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x":(1)2}, {}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4, [{"x":(1)2}, {}]>]>
// CHECK:         %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4, [{"x":(1)2}, {}]>]>
func.func @non_minor_factor_takes_divisible_part(%a: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}]>}) -> tensor<6x4xf32> {
  %0 = stablehlo.reshape %a : (tensor<24xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.negate %0 : tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}

// -----

sdy.mesh @mesh_x2 = <["x"=2]>

// CHECK-LABEL: func @coprime_non_minor_factor(
// CHECK-SAME:    %arg0: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}]>}
// CHECK-SAME:    -> tensor<3x8xf32>
// CHECK:         %0 = stablehlo.reshape %arg0 : (tensor<24xf32>) -> tensor<3x8xf32>
// CHECK:         %1 = stablehlo.negate %0 : tensor<3x8xf32>
func.func @coprime_non_minor_factor(%a: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}]>}) -> tensor<3x8xf32> {
  %0 = stablehlo.reshape %a : (tensor<24xf32>) -> tensor<3x8xf32>
  %1 = stablehlo.negate %0 : tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @same_axis_two_factors(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @same_axis_two_factors(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                 %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @axis_already_used_elsewhere(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @axis_already_used_elsewhere(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", ?}, {"y", ?}]>},
                                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @dot_conflict_larger_tensor_wins(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// CHECK-SAME:    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
// CHECK:         %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
func.func @dot_conflict_larger_tensor_wins(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                           %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
