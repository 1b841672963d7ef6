// slice, pad, concatenate, reverse, dynamic_slice, dynamic_update_slice: one factor per
// dim; dims along which elements move are permutations; dims cut at runtime offsets
// must be whole.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @slice(
func.func @slice(%x: tensor<8x16xf32>) {
  // CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} permutation={i}>
  %0 = stablehlo.slice %x [0:4, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} permutation={i, j}>
  %1 = stablehlo.slice %x [0:8:2, 1:16:3] : (tensor<8x16xf32>) -> tensor<4x5xf32>
  // CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %2 = stablehlo.slice %x [0:8, 0:16] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// The padding value is a scalar: no factor. A dim is a permutation when any of its
// paddings is non-zero; the shift (low -1, high +1) differs from Shardy on purpose.
// CHECK-LABEL: func @pad(
func.func @pad(%x: tensor<8x16xf32>, %s: tensor<f32>) {
  // CHECK: stablehlo.pad{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={i}>
  %0 = stablehlo.pad %x, %s, low = [1, 0], high = [2, 0], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<11x16xf32>
  // CHECK: stablehlo.pad{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={j}>
  %1 = stablehlo.pad %x, %s, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x31xf32>
  // CHECK: stablehlo.pad{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={i}>
  %2 = stablehlo.pad %x, %s, low = [-1, 0], high = [1, 0], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.pad{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16}>
  %3 = stablehlo.pad %x, %s, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}

// The concat dim is a permutation when the pieces are slices of one array (or all
// slices: a roll, a halo), else it must be whole.
// CHECK-LABEL: func @concatenate(
func.func @concatenate(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) {
  // CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} permutation={i}>
  %lo = stablehlo.slice %a [0:4, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} permutation={i}>
  %hi = stablehlo.slice %a [4:8, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} permutation={i}>
  %bl = stablehlo.slice %b [0:4, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16} permutation={i}>
  %0 = stablehlo.concatenate %hi, %lo, dim = 0 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=16, j=16} permutation={i}>
  %1 = stablehlo.concatenate %lo, %a, %hi, dim = 0 : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=32} permutation={j}>
  %2 = stablehlo.concatenate %lo, %bl, dim = 1 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x32xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=16, j=16} need_replication={i}>
  %3 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=12, j=16} need_replication={i}>
  %4 = stablehlo.concatenate %lo, %b, dim = 0 : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<12x16xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=16, j=16} need_replication={i}>
  %5 = stablehlo.concatenate %lo, %a, %bl, dim = 0 : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
  // CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=32} need_replication={j}>
  %6 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  return
}

// CHECK-LABEL: func @reverse(
func.func @reverse(%x: tensor<4x8x16xf32>) {
  // CHECK: stablehlo.reverse{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=16} permutation={i, k}>
  %0 = stablehlo.reverse %x, dims = [0, 2] : tensor<4x8x16xf32>
  return
}

// A dynamically sliced dim must be whole and blocks propagation (Shardy sizes its
// factor like the operand dim, on the result too).
// CHECK-LABEL: func @dynamic_slice(
func.func @dynamic_slice(%x: tensor<8x16xf32>, %v: tensor<16xf32>, %i: tensor<i32>) {
  // CHECK: stablehlo.dynamic_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [], [])->([i, j]) {i=8, j=16} need_replication={i} blocked_propagation={i}>
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [4, 16] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
  // CHECK: stablehlo.dynamic_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [], [])->([i, j]) {i=8, j=16}>
  %1 = stablehlo.dynamic_slice %x, %i, %i, sizes = [8, 16] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.dynamic_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [])->([i]) {i=16} need_replication={i} blocked_propagation={i}>
  %2 = stablehlo.dynamic_slice %v, %i, sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
  return
}

// Partly updated dims: operand and result stay sharded alike; the update must be whole.
// CHECK-LABEL: func @dynamic_update_slice(
func.func @dynamic_update_slice(%x: tensor<8x16xf32>, %u: tensor<4x16xf32>, %i: tensor<i32>) {
  // CHECK: stablehlo.dynamic_update_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=8, j=4, k=16} need_replication={j}>
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x16xf32>, tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.dynamic_update_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, j]) {i=8, j=16}>
  %1 = stablehlo.dynamic_update_slice %x, %x, %i, %i : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return
}
