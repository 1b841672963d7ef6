// transpose: result dim i and operand dim permutation[i] share a factor.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @transpose(
func.func @transpose(%x: tensor<8x16xf32>, %y: tensor<4x8x16x2xf32>, %s: tensor<f32>) {
  // CHECK: stablehlo.transpose{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([i, j]) {i=16, j=8}>
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  // CHECK: stablehlo.transpose{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, l, i, k])->([i, j, k, l]) {i=16, j=4, k=2, l=8}>
  %1 = stablehlo.transpose %y, dims = [2, 0, 3, 1] : (tensor<4x8x16x2xf32>) -> tensor<16x4x2x8xf32>
  // CHECK: stablehlo.transpose{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, j, k, l]) {i=4, j=8, k=16, l=2}>
  %2 = stablehlo.transpose %y, dims = [0, 1, 2, 3] : (tensor<4x8x16x2xf32>) -> tensor<4x8x16x2xf32>
  // CHECK: stablehlo.transpose{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([])>
  %3 = stablehlo.transpose %s, dims = [] : (tensor<f32>) -> tensor<f32>
  return
}
