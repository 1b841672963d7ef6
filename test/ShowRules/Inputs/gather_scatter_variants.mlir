// More gather / scatter dimension numbers for the agreement test (no FileCheck).
func.func @gathers(%x: tensor<8x16x4xf32>, %i0: tensor<2x5xi32>, %i1: tensor<5x3x2xi32>, %i2: tensor<5x2xi32>, %b: tensor<3x8x16xf32>, %bi: tensor<4x3x1xi32>) {
  // index vector dim first
  %0 = "stablehlo.gather"(%x, %i0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1, 4>, indices_are_sorted = false} : (tensor<8x16x4xf32>, tensor<2x5xi32>) -> tensor<5x4xf32>
  // two batch dims, offset dims in the middle
  %1 = "stablehlo.gather"(%x, %i1) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0, 2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 16, 2>, indices_are_sorted = true} : (tensor<8x16x4xf32>, tensor<5x3x2xi32>) -> tensor<5x16x2x3xf32>
  // partial windows, one of size 1
  %2 = "stablehlo.gather"(%x, %i2) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8, 4>, indices_are_sorted = false} : (tensor<8x16x4xf32>, tensor<5x2xi32>) -> tensor<5x1x8x4xf32>
  // batching dims not leading in the indices
  %3 = "stablehlo.gather"(%b, %bi) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>, indices_are_sorted = false} : (tensor<3x8x16xf32>, tensor<4x3x1xi32>) -> tensor<4x3x16xf32>
  return
}

func.func @scatters(%x: tensor<8x16x4xf32>, %i0: tensor<2x5xi32>, %u0: tensor<5x4xf32>, %i2: tensor<5x2xi32>, %u2: tensor<5x1x8x4xf32>, %m: tensor<8x16xi1>, %mi: tensor<3x1xi32>, %mu: tensor<3x16xi1>, %b: tensor<3x8x16xf32>, %bi: tensor<4x3x1xi32>, %bu: tensor<4x3x16xf32>) {
  %0 = "stablehlo.scatter"(%x, %i0, %u0) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.multiply %c, %a : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16x4xf32>, tensor<2x5xi32>, tensor<5x4xf32>) -> tensor<8x16x4xf32>
  %1 = "stablehlo.scatter"(%x, %i2, %u2) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.subtract %a, %c : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16x4xf32>, tensor<5x2xi32>, tensor<5x1x8x4xf32>) -> tensor<8x16x4xf32>
  %2 = "stablehlo.scatter"(%m, %mi, %mu) ({
    ^bb0(%a: tensor<i1>, %c: tensor<i1>):
      %s = stablehlo.or %a, %c : tensor<i1>
      stablehlo.return %s : tensor<i1>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16xi1>, tensor<3x1xi32>, tensor<3x16xi1>) -> tensor<8x16xi1>
  %3 = "stablehlo.scatter"(%m, %mi, %mu) ({
    ^bb0(%a: tensor<i1>, %c: tensor<i1>):
      %s = stablehlo.xor %a, %c : tensor<i1>
      stablehlo.return %s : tensor<i1>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16xi1>, tensor<3x1xi32>, tensor<3x16xi1>) -> tensor<8x16xi1>
  %4 = "stablehlo.scatter"(%b, %bi, %bu) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.minimum %a, %c : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x8x16xf32>, tensor<4x3x1xi32>, tensor<4x3x16xf32>) -> tensor<3x8x16xf32>
  %5:2 = "stablehlo.scatter"(%x, %x, %i0, %u0, %u0) ({
    ^bb0(%a: tensor<f32>, %a2: tensor<f32>, %c: tensor<f32>, %c2: tensor<f32>):
      %s = stablehlo.add %a, %c : tensor<f32>
      %t = stablehlo.maximum %a2, %c2 : tensor<f32>
      stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = false} : (tensor<8x16x4xf32>, tensor<8x16x4xf32>, tensor<2x5xi32>, tensor<5x4xf32>, tensor<5x4xf32>) -> (tensor<8x16x4xf32>, tensor<8x16x4xf32>)
  return
}
