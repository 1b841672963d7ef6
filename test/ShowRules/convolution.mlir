// convolution: batch in lhs and result. Each lhs spatial dim is cut into a
// number-of-windows factor (with the result; a permutation) and a window-size factor
// (with the kernel; a reduction), the larger major, each at most what the lhs dim has
// left (a factor of size 1 is dropped; the dim it would have covered gets a size-1
// factor of its own). Input features contract with the kernel's; output features come
// from the kernel. Feature / batch groups add a group factor.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @spatial(
func.func @spatial(%img: tensor<2x32x32x8xf32>, %k3: tensor<3x3x8x16xf32>, %k30: tensor<30x30x8x16xf32>, %k1: tensor<1x1x8x16xf32>) {
  // same padding: the whole lhs dim goes to the windows
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) {i=2, j=32, k=32, l=8, m=16, n=1, o=1} reduction={l} permutation={j, k}>
  %0 = stablehlo.convolution(%img, %k3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x32x32x16xf32>
  // stride 2: 16 windows, then a window factor of what is left (2)
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=16, k=2, l=16, m=2, n=8, o=16} reduction={k, m, n} permutation={j, l}>
  %1 = stablehlo.convolution(%img, %k3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x16x16x16xf32>
  // window larger than the number of windows: the window factor is major
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [j, k, l, m])->([i, n, o, m]) {i=2, j=30, k=30, l=8, m=16, n=1, o=1} reduction={j, k, l}>
  %2 = stablehlo.convolution(%img, %k30) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x8xf32>, tensor<30x30x8x16xf32>) -> tensor<2x3x3x16xf32>
  // 1x1 kernel
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) {i=2, j=32, k=32, l=8, m=16, n=1, o=1} reduction={l} permutation={j, k}>
  %3 = stablehlo.convolution(%img, %k1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x8xf32>, tensor<1x1x8x16xf32>) -> tensor<2x32x32x16xf32>
  // lhs dilation: more windows than lhs elements
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) {i=2, j=32, k=32, l=8, m=16, n=1, o=1} reduction={l} permutation={j, k}>
  %4 = stablehlo.convolution(%img, %k3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x61x61x16xf32>
  return
}

// CHECK-LABEL: func @layouts(
func.func @layouts(%nchw: tensor<8x8x32x32xf32>, %oihw: tensor<16x8x5x5xf32>, %ncw: tensor<4x8x20xf32>, %oiw: tensor<6x8x5xf32>, %vol: tensor<2x8x8x8x4xf32>, %kvol: tensor<2x2x2x4x8xf32>) {
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j, k], [m, l, n, o])->([i, m, j, k]) {i=8, j=28, k=28, l=8, m=16, n=1, o=1} reduction={l} permutation={j, k}>
  %0 = stablehlo.convolution(%nchw, %oihw) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x8x32x32xf32>, tensor<16x8x5x5xf32>) -> tensor<8x16x28x28xf32>
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, j], [l, k, m])->([i, j, l]) {i=4, j=20, k=8, l=6, m=1} reduction={k} permutation={j}>
  %1 = stablehlo.convolution(%ncw, %oiw) dim_numbers = [b, f, 0]x[o, i, 0]->[b, 0, f], window = {stride = [1], pad = [[2, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x8x20xf32>, tensor<6x8x5xf32>) -> tensor<4x20x6xf32>
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, no, p], [k, m, o, p, q])->([i, j, l, n, q]) {i=2, j=4, k=2, l=4, m=2, n=4, o=2, p=4, q=8} reduction={k, m, o, p} permutation={j, l, n}>
  %2 = stablehlo.convolution(%vol, %kvol) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [2, 2, 2], pad = [[0, 0], [0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8x4xf32>, tensor<2x2x2x4x8xf32>) -> tensor<2x4x4x4x8xf32>
  return
}

// CHECK-LABEL: func @groups(
func.func @groups(%img: tensor<2x32x32x8xf32>, %kg: tensor<3x3x2x16xf32>, %nchw: tensor<8x8x32x32xf32>, %oihw: tensor<16x8x5x5xf32>) {
  // 4 feature groups: lhs features = (group, per-group), kernel outputs = (group, per-group)
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, lm], [o, p, m, ln])->([i, j, k, ln]) {i=2, j=32, k=32, l=4, m=2, n=4, o=1, p=1} reduction={m} permutation={j, k}>
  %0 = stablehlo.convolution(%img, %kg) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x32x32x8xf32>, tensor<3x3x2x16xf32>) -> tensor<2x32x32x16xf32>
  // 4 batch groups (a weight gradient): lhs batch = (group, per-group)
  // CHECK: stablehlo.convolution{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, m, k, l], [in, m, o, p])->([j, in, k, l]) {i=4, j=2, k=28, l=28, m=8, n=4, o=1, p=1} reduction={m} permutation={k, l}>
  %1 = stablehlo.convolution(%nchw, %oihw) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<8x8x32x32xf32>, tensor<16x8x5x5xf32>) -> tensor<2x16x28x28xf32>
  return
}
