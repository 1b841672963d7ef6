// reshape: both shapes are cut into common factors, major to minor. A split or merged
// dim is a compound dim ([ij]: i major, j minor); where sizes share no divisor each side
// has factors of its own until the running products meet again. Size-1 dims have their
// own factor. An empty tensor has nothing to shard: each dim is a factor of its own that
// needs replication (nothing propagates through it, and no warning).
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @split_and_merge(
func.func @split_and_merge(%a: tensor<16x8xf32>, %b: tensor<4x4x8xf32>) {
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, j, k]) {i=4, j=4, k=8}>
  %0 = stablehlo.reshape %a : (tensor<16x8xf32>) -> tensor<4x4x8xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([ij, k]) {i=4, j=4, k=8}>
  %1 = stablehlo.reshape %b : (tensor<4x4x8xf32>) -> tensor<16x8xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=16, j=8}>
  %2 = stablehlo.reshape %a : (tensor<16x8xf32>) -> tensor<128xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, l])->([i, jkl]) {i=2, j=2, k=4, l=8}>
  %3 = stablehlo.reshape %b : (tensor<4x4x8xf32>) -> tensor<2x64xf32>
  return
}

// CHECK-LABEL: func @common_divisor(
func.func @common_divisor(%a: tensor<6x4xf32>, %b: tensor<12x10xf32>) {
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}>
  %0 = stablehlo.reshape %a : (tensor<6x4xf32>) -> tensor<4x6xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=4, j=3, k=2, l=3, m=2, n=5}>
  %1 = stablehlo.reshape %b : (tensor<12x10xf32>) -> tensor<8x15xf32>
  return
}

// CHECK-LABEL: func @no_common_divisor(
func.func @no_common_divisor(%a: tensor<3x5xf32>, %b: tensor<6x35xf32>) {
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([j, l]) {i=3, j=5, k=5, l=3}>
  %0 = stablehlo.reshape %a : (tensor<3x5xf32>) -> tensor<5x3xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, km])->([j, lm]) {i=6, j=7, k=7, l=6, m=5}>
  %1 = stablehlo.reshape %b : (tensor<6x35xf32>) -> tensor<7x30xf32>
  return
}

// CHECK-LABEL: func @size_one_dims(
func.func @size_one_dims(%a: tensor<8x1x4xf32>, %s: tensor<f32>, %o: tensor<1x1xf32>) {
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, k, l])->([i, jl, m]) {i=1, j=8, k=1, l=4, m=1}>
  %0 = stablehlo.reshape %a : (tensor<8x1x4xf32>) -> tensor<1x32x1xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j]) {i=1, j=1}>
  %1 = stablehlo.reshape %s : (tensor<f32>) -> tensor<1x1xf32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1}>
  %2 = stablehlo.reshape %o : (tensor<1x1xf32>) -> tensor<f32>
  // CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, k]) {i=8, j=1, k=4}>
  %3 = stablehlo.reshape %a : (tensor<8x1x4xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func @empty(
func.func @empty(%e: tensor<0x4xf32>) {
  // CHECK: stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l]) {i=0, j=4, k=4, l=0} need_replication={i, j, k, l}>}
  %0 = stablehlo.reshape %e : (tensor<0x4xf32>) -> tensor<4x0xf32>
  return
}
