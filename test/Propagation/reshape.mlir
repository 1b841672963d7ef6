// reshape: split and merged dims become compound factors; a dim's axes are cut into
// sub-axes so that a major factor takes only what divides its size ("x"=8 on 32 ->
// 4x8 gives "x":(1)4 and "x":(4)2), and a minor factor cannot be sharded while the
// major one is only partly sharded. What does not divide a non-minor-most factor
// overflows: it stays on the dim it came from and nothing passes behind it.
//
// Native differences, all legitimate: the native pipeline's export then rewrites the
// *main function's* argument/result shardings for XLA
// (sdy-update-non-divisible-input-output-shardings,
// sdy-remove-sub-axes-in-input-output-shardings), e.g. @split_dim_sub_axes ends with a
// result of [{}, {}] and @non_divisible with an argument of [{"x":(1)2}, {}]. That is
// an export compatibility step, not propagation: shardpy-propagate leaves the func
// boundary as propagated. Every chunk agrees with the native pipeline without those
// two passes.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @merge_dims(
// CHECK-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>}
// CHECK-SAME:    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x", "y"}]>]>
func.func @merge_dims(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>}) -> tensor<32xf32> {
  %0 = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @merge_dims_minor_blocked(
// CHECK-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}]>]>
func.func @merge_dims_minor_blocked(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<32xf32> {
  %0 = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @merge_dims_backward(
// CHECK-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>}
// CHECK-SAME:    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x", "y"}]>]>
func.func @merge_dims_backward(%a: tensor<8x4xf32>) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}]>}) {
  %0 = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @merge_dims_backward_split_axis(
// CHECK-SAME:    %arg0: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y":(1)2}, {"y":(2)2, "x"}]>}
// CHECK-SAME:    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", "x"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y", "x"}]>]>
func.func @merge_dims_backward_split_axis(%a: tensor<2x16xf32>) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", "x"}]>}) {
  %0 = stablehlo.reshape %a : (tensor<2x16xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x8 = <["x"=8]>

// CHECK-LABEL: func @split_dim_sub_axes(
// CHECK-SAME:    %arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x"}]>}
// CHECK-SAME:    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x":(1)4}, {"x":(4)2}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x8, [{"x":(1)4}, {"x":(4)2}]>]>
func.func @split_dim_sub_axes(%a: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.reshape %a : (tensor<32xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

sdy.mesh @mesh_x8 = <["x"=8]>

// CHECK-LABEL: func @merge_sub_axes_back(
// CHECK-SAME:    %arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x":(1)4}, {"x":(4)2}]>}
// CHECK-SAME:    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x8, [{"x"}]>]>
func.func @merge_sub_axes_back(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x":(1)4}, {"x":(4)2}]>}) -> tensor<32xf32> {
  %0 = stablehlo.reshape %a : (tensor<4x8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x8 = <["x"=8]>

// CHECK-LABEL: func @split_then_merge(
// CHECK-SAME:    %arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x"}]>}
// CHECK-SAME:    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x8, [{"x":(1)4}, {"x":(4)2}]>]>
// CHECK:         %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x8, [{"x":(1)4}, {"x":(4)2}]>]>
// CHECK:         %2 = stablehlo.reshape %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x8, [{"x"}]>]>
func.func @split_then_merge(%a: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x8, [{"x"}]>}) -> tensor<32xf32> {
  %0 = stablehlo.reshape %a : (tensor<32xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.negate %0 : tensor<4x8xf32>
  %2 = stablehlo.reshape %1 : (tensor<4x8xf32>) -> tensor<32xf32>
  return %2 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x4_y4 = <["x"=4, "y"=4]>

// CHECK-LABEL: func @split_dim_two_axes(
// CHECK-SAME:    %arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x4_y4, [{"x", "y"}]>}
// CHECK-SAME:    -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x4_y4, [{"x":(1)2}, {"x":(2)2, "y"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4_y4, [{"x":(1)2}, {"x":(2)2, "y"}]>]>
func.func @split_dim_two_axes(%a: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh_x4_y4, [{"x", "y"}]>}) -> tensor<2x16xf32> {
  %0 = stablehlo.reshape %a : (tensor<32xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

sdy.mesh @mesh_x4 = <["x"=4]>

// CHECK-LABEL: func @non_divisible(
// CHECK-SAME:    %arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x":(1)2}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4, [{"x":(1)2}]>]>
func.func @non_divisible(%a: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}, {}]>}) -> tensor<24xf32> {
  %0 = stablehlo.reshape %a : (tensor<6x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}

// -----

sdy.mesh @mesh_x4 = <["x"=4]>

// CHECK-LABEL: func @non_divisible_minor_most(
// CHECK-SAME:    %arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{}, {"x"}]>}
// CHECK-SAME:    -> tensor<2x12xf32>
// CHECK:         %0 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<2x12xf32>
func.func @non_divisible_minor_most(%a: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{}, {"x"}]>}) -> tensor<2x12xf32> {
  %0 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

sdy.mesh @mesh_x4 = <["x"=4]>

// CHECK-LABEL: func @non_divisible_backward(
// CHECK-SAME:    %arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x":(1)2}, {}]>}
// CHECK-SAME:    -> (tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4, [{"x"}]>]>
func.func @non_divisible_backward(%a: tensor<6x4xf32>) -> (tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh_x4, [{"x"}]>}) {
  %0 = stablehlo.reshape %a : (tensor<6x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @size_one_dims(
// CHECK-SAME:    %arg0: tensor<8x1x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @size_one_dims(%a: tensor<8x1x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {"y"}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.reshape %a : (tensor<8x1x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
