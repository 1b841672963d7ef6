// sort, fft, cholesky, triangular_solve: batch dims pass through; the dims the op works
// along (sort dim, transformed dims, matrix dims) must be whole.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// The sort dim is blocked too when it is the only dim of size > 1.
// CHECK-LABEL: func @sort(
func.func @sort(%x: tensor<8x16xf32>, %i: tensor<8x16xi32>, %v: tensor<16xf32>, %o: tensor<1x16xf32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j], [i, j]) {i=8, j=16} need_replication={j}>
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=16} need_replication={i} blocked_propagation={i}>
  %1 = "stablehlo.sort"(%v) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<16xf32>) -> tensor<16xf32>
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=1, j=16} need_replication={j} blocked_propagation={j}>
  %2 = "stablehlo.sort"(%o) <{dimension = 1 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} need_replication={i}>
  %3 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// A real FFT changes the last dim's size: one operand-sized factor, blocked.
// CHECK-LABEL: func @fft(
func.func @fft(%c: tensor<8x16xcomplex<f32>>, %c3: tensor<4x8x16xcomplex<f32>>, %r: tensor<4x8x16xf32>) {
  // CHECK: stablehlo.fft{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} need_replication={j}>
  %0 = stablehlo.fft %c, type = FFT, length = [16] : (tensor<8x16xcomplex<f32>>) -> tensor<8x16xcomplex<f32>>
  // CHECK: stablehlo.fft{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=16} need_replication={j, k}>
  %1 = stablehlo.fft %c3, type = IFFT, length = [8, 16] : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
  // CHECK: stablehlo.fft{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=16} need_replication={j, k} blocked_propagation={k}>
  %2 = stablehlo.fft %r, type = RFFT, length = [8, 16] : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>
  // CHECK: stablehlo.fft{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=16} need_replication={k} blocked_propagation={k}>
  %3 = stablehlo.fft %c3, type = IRFFT, length = [30] : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x30xf32>
  return
}

// CHECK-LABEL: func @cholesky(
func.func @cholesky(%a: tensor<8x8xf32>, %b: tensor<2x3x8x8xf32>) {
  // CHECK: stablehlo.cholesky{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} need_replication={i, j}>
  %0 = stablehlo.cholesky %a, lower = true : tensor<8x8xf32>
  // CHECK: stablehlo.cholesky{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, j, k, l]) {i=2, j=3, k=8, l=8} need_replication={k, l}>
  %1 = stablehlo.cholesky %b : tensor<2x3x8x8xf32>
  return
}

// op(a) @ x = b (left side) or x @ op(a) = b; a is 8x8, b 8x4 or 4x8.
// CHECK-LABEL: func @triangular_solve(
func.func @triangular_solve(%a: tensor<3x8x8xf32>, %l: tensor<3x8x4xf32>, %r: tensor<3x4x8xf32>) {
  // CHECK: stablehlo.triangular_solve{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, j, k])->([i, l, k]) {i=3, j=8, k=4, l=8} need_replication={j, k, l}>
  %0 = "stablehlo.triangular_solve"(%a, %l) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x8x8xf32>, tensor<3x8x4xf32>) -> tensor<3x8x4xf32>
  // CHECK: stablehlo.triangular_solve{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j], [i, j, k])->([i, l, k]) {i=3, j=8, k=4, l=8} need_replication={j, k, l}>
  %1 = "stablehlo.triangular_solve"(%a, %l) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<3x8x8xf32>, tensor<3x8x4xf32>) -> tensor<3x8x4xf32>
  // CHECK: stablehlo.triangular_solve{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, k], [i, j, k])->([i, j, l]) {i=3, j=4, k=8, l=8} need_replication={j, k, l}>
  %2 = "stablehlo.triangular_solve"(%a, %r) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x8x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  // CHECK: stablehlo.triangular_solve{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l], [i, j, k])->([i, j, l]) {i=3, j=4, k=8, l=8} need_replication={j, k, l}>
  %3 = "stablehlo.triangular_solve"(%a, %r) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x8x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return
}
