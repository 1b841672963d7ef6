// dot_general / dot: batch dims in lhs, rhs and result; free dims of lhs then rhs in
// that operand and the result; contracting dims in both operands, as reductions.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @dot_general(
func.func @dot_general(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %x: tensor<4x16x32xf32>, %y: tensor<4x32x64xf32>, %v: tensor<32xf32>, %q: tensor<8x4x16x2xf32>, %k: tensor<16x2x4x6xf32>) {
  // CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=16, j=64, k=32} reduction={k}>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  // CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=16, k=64, l=32} reduction={l}>
  %1 = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x16x32xf32>, tensor<4x32x64xf32>) -> tensor<4x16x64xf32>
  // CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([]) {i=16, j=32} reduction={i, j}>
  %2 = stablehlo.dot_general %a, %a, contracting_dims = [0, 1] x [0, 1] : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<f32>
  // CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k])->([i, j, k]) {i=16, j=32, k=32}>
  %3 = stablehlo.dot_general %a, %v, contracting_dims = [] x [] : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16x32x32xf32>
  // CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i, l, m], [l, m, i, k])->([i, j, k]) {i=4, j=8, k=6, l=16, m=2} reduction={l, m}>
  %4 = stablehlo.dot_general %q, %k, batching_dims = [1] x [2], contracting_dims = [2, 3] x [0, 1] : (tensor<8x4x16x2xf32>, tensor<16x2x4x6xf32>) -> tensor<4x8x6xf32>
  return
}

// CHECK-LABEL: func @dot(
func.func @dot(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %v: tensor<32xf32>, %w: tensor<16xf32>) {
  // CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=16, j=64, k=32} reduction={k}>
  %0 = stablehlo.dot %a, %b : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  // CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j])->([i]) {i=16, j=32} reduction={j}>
  %1 = stablehlo.dot %a, %v : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16xf32>
  // CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j], [j, i])->([i]) {i=32, j=16} reduction={j}>
  %2 = stablehlo.dot %w, %a : (tensor<16xf32>, tensor<16x32xf32>) -> tensor<32xf32>
  // CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([]) {i=32} reduction={i}>
  %3 = stablehlo.dot %v, %v : (tensor<32xf32>, tensor<32xf32>) -> tensor<f32>
  return
}
