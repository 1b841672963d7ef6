// Factors a rule marks `blocked_propagation` never carry a sharding (the sliced dim of
// dynamic_slice, partial gather windows, a sort's only dim, an RFFT's last dim, whatever
// a `sdy.sharding_rule` attribute blocks); the checks are what the native pipeline gives.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @dynamic_slice_sliced_dim_forward(
// CHECK-SAME:    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         stablehlo.dynamic_slice {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.negate {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @dynamic_slice_sliced_dim_forward(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                                            %i: tensor<i32>, %j: tensor<i32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [8, 4] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  %1 = stablehlo.negate %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @dynamic_slice_sliced_dim_backward(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK:         stablehlo.negate {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.dynamic_slice {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @dynamic_slice_sliced_dim_backward(%a: tensor<8x16xf32>, %i: tensor<i32>, %j: tensor<i32>)
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = stablehlo.dynamic_slice %0, %i, %j, sizes = [8, 4] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @gather_patches(
// CHECK-SAME:    -> tensor<4x2x4xf32>
// CHECK-NOT:     sdy.sharding_per_value
// CHECK:         return
func.func @gather_patches(%table: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                          %pairs: tensor<4x2xi32>) -> tensor<4x2x4xf32> {
  %0 = "stablehlo.gather"(%table, %pairs) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>, indices_are_sorted = false} : (tensor<8x16xf32>, tensor<4x2xi32>) -> tensor<4x2x4xf32>
  %1 = stablehlo.negate %0 : tensor<4x2x4xf32>
  return %1 : tensor<4x2x4xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @sort_only_dim(
// CHECK-SAME:    -> tensor<16xf32>
// CHECK-NOT:     sdy.sharding_per_value
// CHECK:         return
func.func @sort_only_dim(%v: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>}) -> tensor<16xf32> {
  %0 = "stablehlo.sort"(%v) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = stablehlo.negate %0 : tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @rfft_last_dim(
// CHECK-SAME:    -> (tensor<4x8x9xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}]>})
// CHECK:         stablehlo.fft {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}, {}]>]>
func.func @rfft_last_dim(%r: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {"y"}]>}) -> tensor<4x8x9xcomplex<f32>> {
  %0 = stablehlo.fft %r, type = RFFT, length = [8, 16] : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>
  %1 = stablehlo.negate %0 : tensor<4x8x9xcomplex<f32>>
  return %1 : tensor<4x8x9xcomplex<f32>>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @rule_attr_blocked_factor(
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         stablehlo.custom_call @my_op{{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.negate {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @rule_attr_blocked_factor(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @my_op(%x) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} blocked_propagation={j}>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
