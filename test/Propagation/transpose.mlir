// transpose: result dim i is operand dim permutation[i]; shardings move with the
// dims, both ways. Same as the native sdy-propagation-pipeline.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @forward(
// CHECK-SAME:    %arg0: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {"y"}]>}
// CHECK-SAME:    -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}, {}]>})
// CHECK:         %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}, {}]>]>
func.func @forward(%a: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {"y"}]>}) -> tensor<4x8x16xf32> {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<8x16x4xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @backward(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y", "x"}]>}
// CHECK-SAME:    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", "x"}, {}]>})
// CHECK:         %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y", "x"}, {}]>]>
func.func @backward(%a: tensor<8x16xf32>) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", "x"}, {}]>}) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
