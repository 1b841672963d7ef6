// broadcast_in_dim: a result dim fed by an operand dim of the same size shares its
// factor; new result dims get their own factor; a size-1 operand dim stretched to size
// n keeps a size-1 factor of its own and the result dim gets a new size-n factor.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @broadcast_in_dim(
func.func @broadcast_in_dim(%s: tensor<f32>, %v: tensor<32xf32>, %m: tensor<16x8x1xf32>, %t: tensor<8x4xf32>, %o: tensor<1x1x32xf32>) {
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j, k]) {i=16, j=8, k=1}>
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k])->([i, j, k]) {i=1, j=1, k=32}>
  %1 = stablehlo.broadcast_in_dim %v, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, l]) {i=16, j=8, k=1, l=32}>
  %2 = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, m])->([j, l, m]) {i=1, j=16, k=1, l=8, m=32}>
  %3 = stablehlo.broadcast_in_dim %o, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l])->([i, j, k, l]) {i=16, j=8, k=4, l=1}>
  %4 = stablehlo.broadcast_in_dim %m, dims = [0, 1, 3] : (tensor<16x8x1xf32>) -> tensor<16x8x4x1xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, i])->([i, j, k]) {i=4, j=5, k=8}>
  %5 = stablehlo.broadcast_in_dim %t, dims = [2, 0] : (tensor<8x4xf32>) -> tensor<4x5x8xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=16, j=8, k=1}>
  %6 = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x1xf32>
  return
}
