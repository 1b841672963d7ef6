// gather / scatter: operand dims, indices batch dims and slice (result / update) dims,
// related through the dimension numbers. Gather: collapsed operand dims are reductions
// (a shard holds some rows, the result is all-reduced); window dims narrower than the
// operand must be whole (size 1: the operand dim is a reduction instead). The index
// vector dim must be whole. Scatter: batch dims only indices and updates have are
// reductions when the update computation is a reducer (add, mul, max, min, or, and),
// else they must be whole; partial windows must be whole on both sides.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @gather(
func.func @gather(%table: tensor<8x16xf32>, %ids: tensor<4x1xi32>, %flat: tensor<4xi32>, %pairs: tensor<4x2xi32>) {
  // embedding lookup
  // CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l])->([i, j]) {i=4, j=16, k=8, l=1} reduction={k} need_replication={l}>
  %0 = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>, indices_are_sorted = false} : (tensor<8x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
  // implicit index vector dim
  // CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i])->([i, j]) {i=4, j=16, k=8} reduction={k}>
  %1 = "stablehlo.gather"(%table, %flat) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>, indices_are_sorted = false} : (tensor<8x16xf32>, tensor<4xi32>) -> tensor<4x16xf32>
  // 2x4 patches: both window dims narrower than the operand, blocked
  // CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, k], [i, l])->([i, j, k]) {i=4, j=8, k=16, l=2} need_replication={j, k, l} blocked_propagation={j, k}>
  %2 = "stablehlo.gather"(%table, %pairs) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>, indices_are_sorted = false} : (tensor<8x16xf32>, tensor<4x2xi32>) -> tensor<4x2x4xf32>
  // a size-1 window dim that is not collapsed
  // CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, l], [i, m])->([i, k, l]) {i=4, j=8, k=1, l=16, m=1} reduction={j} need_replication={k, m}>
  %3 = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>, indices_are_sorted = false} : (tensor<8x16xf32>, tensor<4x1xi32>) -> tensor<4x1x16xf32>
  return
}

// take_along_axis-style: an explicit batch dim shared by operand, indices and result
// CHECK-LABEL: func @gather_batching(
func.func @gather_batching(%x: tensor<3x8x16xf32>, %ids: tensor<3x4x1xi32>) {
  // CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, k], [i, j, m])->([i, j, k]) {i=3, j=4, k=16, l=8, m=1} reduction={l} need_replication={m}>
  %0 = "stablehlo.gather"(%x, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>, indices_are_sorted = false} : (tensor<3x8x16xf32>, tensor<3x4x1xi32>) -> tensor<3x4x16xf32>
  return
}

// CHECK-LABEL: func @scatter(
func.func @scatter(%x: tensor<8x16xf32>, %ids: tensor<4x1xi32>, %u: tensor<4x16xf32>, %pairs: tensor<4x2xi32>, %p: tensor<4x2x4xf32>) {
  // scatter-add: the indices' batch dim is a reduction
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=4, j=16, k=8, l=1} reduction={i} need_replication={l}>
  %0 = "stablehlo.scatter"(%x, %ids, %u) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16xf32>, tensor<4x1xi32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  // scatter (set): the batch dim must be whole
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=4, j=16, k=8, l=1} need_replication={i, l}>
  %1 = "stablehlo.scatter"(%x, %ids, %u) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16xf32>, tensor<4x1xi32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  // partial windows: operand and update dims each whole
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, l], [i, n], [i, k, m])->([j, l]) {i=4, j=8, k=2, l=16, m=4, n=2} reduction={i} need_replication={j, k, l, m, n}>
  %2 = "stablehlo.scatter"(%x, %pairs, %p) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16xf32>, tensor<4x2xi32>, tensor<4x2x4xf32>) -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func @scatter_variadic_and_batching(
func.func @scatter_variadic_and_batching(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %ids: tensor<4x1xi32>, %u: tensor<4x16xf32>, %v: tensor<4x16xf32>, %bx: tensor<3x8x16xf32>, %bids: tensor<3x4x1xi32>, %bu: tensor<3x4x16xf32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [k, j], [i, l], [i, j], [i, j])->([k, j], [k, j]) {i=4, j=16, k=8, l=1} reduction={i} need_replication={l}>
  %0:2 = "stablehlo.scatter"(%x, %y, %ids, %u, %v) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>, %b: tensor<f32>, %d: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      %t = stablehlo.maximum %c, %d : tensor<f32>
      stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x1xi32>, tensor<4x16xf32>, tensor<4x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, k], [i, j, m], [i, j, k])->([i, l, k]) {i=3, j=4, k=16, l=8, m=1} reduction={j} need_replication={m}>
  %1 = "stablehlo.scatter"(%bx, %bids, %bu) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x8x16xf32>, tensor<3x4x1xi32>, tensor<3x4x16xf32>) -> tensor<3x8x16xf32>
  return
}
