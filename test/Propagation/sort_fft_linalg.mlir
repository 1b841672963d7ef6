// sort, fft, cholesky, triangular_solve, rng_bit_generator: batch dims pass through;
// the dims these ops work along are need-replication factors, which Shardy still
// propagates (the partitioner replicates them later), so they carry shardings too.
// rng_bit_generator's state must stay replicated. Same as the native
// sdy-propagation-pipeline on every chunk.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @sort_batch_dim(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}, tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>, <@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @sort_batch_dim(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                          %i: tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xi32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @fft(
// CHECK-SAME:    %arg0: tensor<8x16xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.fft %arg0, type = FFT, length = [16] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @fft(%c: tensor<8x16xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xcomplex<f32>> {
  %0 = stablehlo.fft %c, type = FFT, length = [16] : (tensor<8x16xcomplex<f32>>) -> tensor<8x16xcomplex<f32>>
  return %0 : tensor<8x16xcomplex<f32>>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @cholesky(
// CHECK-SAME:    %arg0: tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}]>}
// CHECK-SAME:    -> (tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}]>})
// CHECK:         %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}, {}]>]>
func.func @cholesky(%a: tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}]>}) -> tensor<2x8x8xf32> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @triangular_solve(
// CHECK-SAME:    %arg0: tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}]>}
// CHECK-SAME:    %arg1: tensor<2x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}, {"y"}]>}
// CHECK-SAME:    -> (tensor<2x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {"y"}]>})
// CHECK:         %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}, {"y"}]>]>
func.func @triangular_solve(%a: tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}]>},
                            %b: tensor<2x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}, {"y"}]>}) -> tensor<2x8x4xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @rng_bit_generator(
// CHECK-SAME:    %arg0: tensor<2xui64>)
// CHECK-SAME:    -> (tensor<2xui64>, tensor<8x16xui32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}]>, <@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @rng_bit_generator(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<8x16xui32>
}
