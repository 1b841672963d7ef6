// Elementwise ops: one pass-through factor per dim, shared by every operand and result
// of the result's rank; scalar predicates and clamp bounds take no factor.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @unary(
func.func @unary(%x: tensor<8x16xf32>, %i: tensor<8x16xi32>, %c: tensor<8x16xcomplex<f32>>) {
  // CHECK: stablehlo.abs{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %0 = stablehlo.abs %x : tensor<8x16xf32>
  // CHECK: stablehlo.cbrt{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %1 = stablehlo.cbrt %x : tensor<8x16xf32>
  // CHECK: stablehlo.ceil{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %2 = stablehlo.ceil %x : tensor<8x16xf32>
  // CHECK: stablehlo.count_leading_zeros{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %3 = stablehlo.count_leading_zeros %i : tensor<8x16xi32>
  // CHECK: stablehlo.convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %4 = stablehlo.convert %x : (tensor<8x16xf32>) -> tensor<8x16xbf16>
  // CHECK: stablehlo.cosine{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %5 = stablehlo.cosine %x : tensor<8x16xf32>
  // CHECK: stablehlo.exponential{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %6 = stablehlo.exponential %x : tensor<8x16xf32>
  // CHECK: stablehlo.exponential_minus_one{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %7 = stablehlo.exponential_minus_one %x : tensor<8x16xf32>
  // CHECK: stablehlo.floor{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %8 = stablehlo.floor %x : tensor<8x16xf32>
  // CHECK: stablehlo.imag{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %9 = stablehlo.imag %c : (tensor<8x16xcomplex<f32>>) -> tensor<8x16xf32>
  // CHECK: stablehlo.is_finite{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %10 = stablehlo.is_finite %x : (tensor<8x16xf32>) -> tensor<8x16xi1>
  // CHECK: stablehlo.log{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %11 = stablehlo.log %x : tensor<8x16xf32>
  // CHECK: stablehlo.log_plus_one{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %12 = stablehlo.log_plus_one %x : tensor<8x16xf32>
  // CHECK: stablehlo.logistic{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %13 = stablehlo.logistic %x : tensor<8x16xf32>
  // CHECK: stablehlo.negate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %14 = stablehlo.negate %x : tensor<8x16xf32>
  // CHECK: stablehlo.not{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %15 = stablehlo.not %i : tensor<8x16xi32>
  // CHECK: stablehlo.popcnt{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %16 = stablehlo.popcnt %i : tensor<8x16xi32>
  // CHECK: stablehlo.real{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %17 = stablehlo.real %c : (tensor<8x16xcomplex<f32>>) -> tensor<8x16xf32>
  // CHECK: stablehlo.reduce_precision{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %18 = stablehlo.reduce_precision %x, format = e5m10 : tensor<8x16xf32>
  // CHECK: stablehlo.round_nearest_afz{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %19 = stablehlo.round_nearest_afz %x : tensor<8x16xf32>
  // CHECK: stablehlo.round_nearest_even{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %20 = stablehlo.round_nearest_even %x : tensor<8x16xf32>
  // CHECK: stablehlo.rsqrt{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %21 = stablehlo.rsqrt %x : tensor<8x16xf32>
  // CHECK: stablehlo.sign{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %22 = stablehlo.sign %x : tensor<8x16xf32>
  // CHECK: stablehlo.sine{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %23 = stablehlo.sine %x : tensor<8x16xf32>
  // CHECK: stablehlo.sqrt{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %24 = stablehlo.sqrt %x : tensor<8x16xf32>
  // CHECK: stablehlo.tan{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %25 = stablehlo.tan %x : tensor<8x16xf32>
  // CHECK: stablehlo.tanh{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %26 = stablehlo.tanh %x : tensor<8x16xf32>
  // CHECK: stablehlo.abs{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %27 = stablehlo.abs %c : (tensor<8x16xcomplex<f32>>) -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func @binary(
func.func @binary(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %i: tensor<4x8x16xi32>, %j: tensor<4x8x16xi32>) {
  // CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %0 = stablehlo.add %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.and{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %1 = stablehlo.and %i, %j : tensor<4x8x16xi32>
  // CHECK: stablehlo.atan2{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %2 = stablehlo.atan2 %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.compare{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %3 = stablehlo.compare GT, %x, %y, FLOAT : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xi1>
  // CHECK: stablehlo.complex{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %4 = stablehlo.complex %x, %y : tensor<4x8x16xcomplex<f32>>
  // CHECK: stablehlo.divide{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %5 = stablehlo.divide %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.maximum{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %6 = stablehlo.maximum %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.minimum{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %7 = stablehlo.minimum %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.multiply{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %8 = stablehlo.multiply %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.or{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %9 = stablehlo.or %i, %j : tensor<4x8x16xi32>
  // CHECK: stablehlo.power{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %10 = stablehlo.power %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.remainder{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %11 = stablehlo.remainder %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.shift_left{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %12 = stablehlo.shift_left %i, %j : tensor<4x8x16xi32>
  // CHECK: stablehlo.shift_right_arithmetic{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %13 = stablehlo.shift_right_arithmetic %i, %j : tensor<4x8x16xi32>
  // CHECK: stablehlo.shift_right_logical{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %14 = stablehlo.shift_right_logical %i, %j : tensor<4x8x16xi32>
  // CHECK: stablehlo.subtract{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %15 = stablehlo.subtract %x, %y : tensor<4x8x16xf32>
  // CHECK: stablehlo.xor{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=16}>
  %16 = stablehlo.xor %i, %j : tensor<4x8x16xi32>
  return
}

// CHECK-LABEL: func @ternary(
func.func @ternary(%p: tensor<8x16xi1>, %s: tensor<i1>, %x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %lo: tensor<f32>, %hi: tensor<f32>) {
  // CHECK: stablehlo.select{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=8, j=16}>
  %0 = stablehlo.select %p, %x, %y : tensor<8x16xi1>, tensor<8x16xf32>
  // CHECK: stablehlo.select{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=8, j=16}>
  %1 = stablehlo.select %s, %x, %y : tensor<i1>, tensor<8x16xf32>
  // CHECK: stablehlo.clamp{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=8, j=16}>
  %2 = stablehlo.clamp %x, %y, %x : tensor<8x16xf32>
  // CHECK: stablehlo.clamp{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=8, j=16}>
  %3 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func @scalar_and_empty(
func.func @scalar_and_empty(%s: tensor<f32>, %e: tensor<2x0x4xf32>) {
  // CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
  %0 = stablehlo.add %s, %s : tensor<f32>
  // CHECK: stablehlo.multiply{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}>
  %1 = stablehlo.multiply %e, %e : tensor<2x0x4xf32>
  return
}

// Same element width: elementwise. Different widths: the narrower side's extra minor
// dim (the pieces of one wide element) is its own need-replication factor.
// CHECK-LABEL: func @bitcast_convert(
func.func @bitcast_convert(%x: tensor<8x16xf32>, %h: tensor<8x16x2xi16>, %s: tensor<f32>) {
  // CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %0 = stablehlo.bitcast_convert %x : (tensor<8x16xf32>) -> tensor<8x16xi32>
  // CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j, k]) {i=8, j=16, k=2} need_replication={k}>
  %1 = stablehlo.bitcast_convert %x : (tensor<8x16xf32>) -> tensor<8x16x2xi16>
  // CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=8, j=16, k=2} need_replication={k}>
  %2 = stablehlo.bitcast_convert %h : (tensor<8x16x2xi16>) -> tensor<8x16xf32>
  // CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i]) {i=4} need_replication={i}>
  %3 = stablehlo.bitcast_convert %s : (tensor<f32>) -> tensor<4xi8>
  return
}

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func @sharding_constraint(
func.func @sharding_constraint(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: sdy.sharding_constraint{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %0 = sdy.sharding_constraint %x <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
