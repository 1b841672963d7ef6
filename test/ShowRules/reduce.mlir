// reduce: kept dims in inputs and results, reduced dims in the inputs only (reduction),
// for any number of inputs. reduce_window / select_and_scatter: one factor per dim,
// a permutation where a window, stride or padding moves data.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @reduce(
func.func @reduce(%x: tensor<4x8x16xf32>, %s: tensor<f32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, j]) {i=4, j=8, k=16} reduction={k}>
  %0 = stablehlo.reduce(%x init: %s) applies stablehlo.add across dimensions = [2] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x8xf32>
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([j]) {i=4, j=8, k=16} reduction={i, k}>
  %1 = stablehlo.reduce(%x init: %s) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<8xf32>
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([]) {i=4, j=8, k=16} reduction={i, j, k}>
  %2 = stablehlo.reduce(%x init: %s) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<f32>
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=4, j=8, k=16}>
  %3 = stablehlo.reduce(%x init: %s) applies stablehlo.add across dimensions = [] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
  return
}

// argmax: values and indices are reduced together
// CHECK-LABEL: func @argmax(
func.func @argmax(%x: tensor<8x16xf32>, %i: tensor<8x16xi32>, %s: tensor<f32>, %z: tensor<i32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i], [i]) {i=8, j=16} reduction={j}>
  %0:2 = stablehlo.reduce(%x init: %s), (%i init: %z) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
      %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
      %j = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
    }
  return
}

// CHECK-LABEL: func @reduce_window(
func.func @reduce_window(%x: tensor<8x16xf32>, %i: tensor<8x16xi32>, %s: tensor<f32>, %z: tensor<i32>) {
  // max pool 1x3, stride 2 along dim 1
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=8} permutation={j}>
  %0 = "stablehlo.reduce_window"(%x, %s) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x8xf32>
  // cumulative sum: same size, but windows overlap
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={j}>
  %1 = "stablehlo.reduce_window"(%x, %s) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 16>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  // base dilation alone moves nothing in Shardy's view: pass-through
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=31}>
  %2 = "stablehlo.reduce_window"(%x, %s) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, base_dilations = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x31xf32>
  // two inputs
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, j], [i, j]) {i=4, j=16} permutation={i}>
  %3:2 = "stablehlo.reduce_window"(%x, %i, %s, %z) ({
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      stablehlo.return %a, %ai : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x16xf32>, tensor<4x16xi32>)
  return
}

// The gradient of a max pool: a windowed dim is one permutation factor of operand,
// source (one element per window) and result. DIFFERS FROM NATIVE, where the source's
// windowed dim is a factor of its own that must be whole.
// CHECK-LABEL: func @select_and_scatter(
func.func @select_and_scatter(%x: tensor<8x16xf32>, %src: tensor<8x8xf32>, %src4: tensor<4x8xf32>, %s: tensor<f32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [])->([i, j]) {i=8, j=16} permutation={j}>
  %0 = "stablehlo.select_and_scatter"(%x, %src, %s) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x16xf32>
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [])->([i, j]) {i=8, j=16} permutation={i, j}>
  %1 = "stablehlo.select_and_scatter"(%x, %src4, %s) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}
