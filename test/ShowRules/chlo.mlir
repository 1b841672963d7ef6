// chlo ops JAX emits. DIFFERS FROM NATIVE: jaxlib's Shardy registry knows no chlo op
// (XLA decomposes chlo before propagating); we give them the rule of what they
// decompose to: elementwise, and chlo.top_k the rule of custom_call @mhlo.topk.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @chlo(
func.func @chlo(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) {
  // CHECK: chlo.erf{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %0 = chlo.erf %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.erf_inv{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %1 = chlo.erf_inv %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.erfc{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %2 = chlo.erfc %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.lgamma{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %3 = chlo.lgamma %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.digamma{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %4 = chlo.digamma %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.asinh{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %5 = chlo.asinh %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.is_inf{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %6 = chlo.is_inf %x : tensor<8x16xf32> -> tensor<8x16xi1>
  // CHECK: chlo.square{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %7 = chlo.square %x : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.next_after{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
  %8 = chlo.next_after %x, %y : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: chlo.top_k{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=8, j=16} need_replication={j} blocked_propagation={j}>
  %9:2 = chlo.top_k(%x, k = 4) : tensor<8x16xf32> -> (tensor<8x4xf32>, tensor<8x4xi32>)
  return
}
