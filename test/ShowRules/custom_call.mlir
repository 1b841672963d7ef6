// custom_call: a rule for the targets Shardy knows (elementwise helpers, linear algebra,
// top-k); none for any other target (a warning names it).
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @elementwise_targets(
func.func @elementwise_targets(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %lo: tensor<2xui32>, %hi: tensor<2xui32>) {
  // CHECK: stablehlo.custom_call @mhlo.erf{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %0 = stablehlo.custom_call @mhlo.erf(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.custom_call @MoveToHost{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %1 = stablehlo.custom_call @MoveToHost(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.custom_call @annotate_device_placement{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %2 = stablehlo.custom_call @annotate_device_placement(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.custom_call @X64Combine{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
  %3 = stablehlo.custom_call @X64Combine(%x, %y) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  // feeding an rng_bit_generator, whose state must stay replicated: blocked
  // CHECK: stablehlo.custom_call @X64Combine{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=2} need_replication={i} blocked_propagation={i}>
  %4 = stablehlo.custom_call @X64Combine(%lo, %hi) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>
  // CHECK: stablehlo.rng_bit_generator{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=8, k=16} need_replication={i} blocked_propagation={i}>
  %5:2 = stablehlo.rng_bit_generator %4, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  return
}

// CHECK-LABEL: func @linalg_targets(
func.func @linalg_targets(%a: tensor<3x8x8xf32>, %w: tensor<4x8x16xf32>, %t: tensor<4x8xf32>) {
  // CHECK: stablehlo.custom_call @Eigh{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, k]) {i=3, j=8, k=8}>
  %0:2 = stablehlo.custom_call @Eigh(%a) : (tensor<3x8x8xf32>) -> (tensor<3x8x8xf32>, tensor<3x8xf32>)
  // CHECK: stablehlo.custom_call @Qr{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=4, j=8, k=16, l=8} need_replication={j, k, l}>
  %1:2 = stablehlo.custom_call @Qr(%w) : (tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8xf32>)
  // CHECK: stablehlo.custom_call @ProductOfElementaryHouseholderReflectors{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, j, k]) {i=4, j=8, k=16, l=8} need_replication={j, k, l}>
  %2 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%w, %t) : (tensor<4x8x16xf32>, tensor<4x8xf32>) -> tensor<4x8x16xf32>
  // CHECK: stablehlo.custom_call @Cholesky{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=3, j=8, k=8}>
  %3 = stablehlo.custom_call @Cholesky(%a) : (tensor<3x8x8xf32>) -> tensor<3x8x8xf32>
  return
}

// CHECK-LABEL: func @top_k_targets(
func.func @top_k_targets(%x: tensor<8x16xf32>, %iota: tensor<8x16xi32>, %s: tensor<f32>, %z: tensor<i32>) {
  // CHECK: stablehlo.custom_call @mhlo.topk{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=8, j=16} need_replication={j} blocked_propagation={j}>
  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {mhlo.attributes = {k = 4 : i64, largest = true}} : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
  // CHECK: stablehlo.custom_call @ApproxTopK{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, k], [i, k]) {i=8, j=16, k=4} need_replication={k} blocked_propagation={k}>
  %1:2 = stablehlo.custom_call @ApproxTopK(%x, %iota, %s, %z) : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
  return
}

// CHECK-LABEL: func @unknown_targets(
func.func @unknown_targets(%x: tensor<8x16xf32>) {
  // CHECK: stablehlo.custom_call @my_kernel
  // CHECK-NOT: sdy.sharding_rule
  // expected-warning@+1 {{no sharding rule for 'stablehlo.custom_call' @my_kernel; propagation stops here}}
  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.custom_call @xla_ffi_python_cpu_callback
  // CHECK-NOT: sdy.sharding_rule
  // expected-warning@+1 {{no sharding rule for 'stablehlo.custom_call' @xla_ffi_python_cpu_callback}}
  %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.custom_call @Sharding
  // CHECK-NOT: sdy.sharding_rule
  // expected-warning@+1 {{no sharding rule for 'stablehlo.custom_call' @Sharding}}
  %2 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}
