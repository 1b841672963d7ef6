// convolution: batch and output features reach the result; input features are a
// reduction shared with the kernel; spatial dims are shared by lhs and result. Same
// as the native sdy-propagation-pipeline on every chunk.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @batch_and_output_features(
// CHECK-SAME:    %arg0: tensor<8x32x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}, {}]>}
// CHECK-SAME:    %arg1: tensor<3x3x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}, {}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x32x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}, {"y"}]>})
// CHECK:         %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1{{\]\]}}} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}, {}, {"y"}]>]>
func.func @batch_and_output_features(%img: tensor<8x32x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}, {}]>},
                                     %k: tensor<3x3x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}, {}, {"y"}]>}) -> tensor<8x32x32x16xf32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @spatial_and_input_features(
// CHECK-SAME:    %arg0: tensor<8x32x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}, {}, {"x"}]>}
// CHECK-SAME:    %arg1: tensor<3x3x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}, {"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x32x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}, {}, {}]>})
// CHECK:         %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1{{\]\]}}} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}, {}, {}]>]>
func.func @spatial_and_input_features(%img: tensor<8x32x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}, {}, {"x"}]>},
                                      %k: tensor<3x3x8x16xf32>) -> tensor<8x32x32x16xf32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @backward_nchw(
// CHECK-SAME:    %arg0: tensor<8x8x32x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}, {}]>}
// CHECK-SAME:    %arg1: tensor<16x8x5x5xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}, {}, {}]>}
// CHECK-SAME:    -> (tensor<8x16x28x28xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}, {}]>})
// CHECK:         %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = {{\[\[}}0, 0], [0, 0{{\]\]}}} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}, {}, {}]>]>
func.func @backward_nchw(%img: tensor<8x8x32x32xf32>, %k: tensor<16x8x5x5xf32>)
    -> (tensor<8x16x28x28xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}, {}]>}) {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x8x32x32xf32>, tensor<16x8x5x5xf32>) -> tensor<8x16x28x28xf32>
  return %0 : tensor<8x16x28x28xf32>
}
