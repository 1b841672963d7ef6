// fft, cholesky and triangular_solve with their batch dims sharded are computed on each
// device's batch as they are: a shard holds whole transforms and whole matrices, so no
// collective (XLA's own partitioner all-gathers a batch-sharded fft's whole operand).
// A transformed dim that is sharded ("y" on the rfft's rows) is gathered, the batch dim
// staying sharded. The matrices: the Gram matrix of %m plus 5 I (positive definite), its
// lower Cholesky factor (the upper triangle masked: the spec leaves it to the
// implementation) and the solve L x = b.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     stablehlo.all_to_all
// CHECK-NOT:     stablehlo.all_reduce
// CHECK:         stablehlo.fft %{{.*}}, type = FFT, length = [32] : (tensor<2x32xcomplex<f32>>) -> tensor<2x32xcomplex<f32>>
// CHECK:         "stablehlo.all_gather"(%arg2)
// CHECK-SAME:    all_gather_dim = 1
// CHECK-SAME:    (tensor<4x4x16xf32>) -> tensor<4x16x16xf32>
// CHECK:         stablehlo.fft %{{.*}}, type = RFFT, length = [16, 16] : (tensor<4x16x16xf32>) -> tensor<4x16x9xcomplex<f32>>
// CHECK:         stablehlo.cholesky %{{.*}}, lower = true : tensor<1x4x4xf32>
// CHECK:         "stablehlo.triangular_solve"(%{{.*}}, %arg4) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<1x4x4xf32>, tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
// CHECK-NOT:     stablehlo.all_gather
// CHECK-NOT:     stablehlo.all_to_all
// CHECK-NOT:     stablehlo.all_reduce
// CHECK:         return
func.func public @main(%re: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
                       %im: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
                       %r: tensor<8x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>},
                       %m: tensor<8x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>},
                       %b: tensor<8x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>})
    -> (tensor<16x32xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
        tensor<8x16x9xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
        tensor<8x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>},
        tensor<8x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>}) {
  %z = stablehlo.complex %re, %im : tensor<16x32xcomplex<f32>>
  %f = stablehlo.fft %z, type = FFT, length = [32] : (tensor<16x32xcomplex<f32>>) -> tensor<16x32xcomplex<f32>>
  %g = stablehlo.fft %r, type = RFFT, length = [16, 16] : (tensor<8x16x16xf32>) -> tensor<8x16x9xcomplex<f32>>
  %gram = stablehlo.dot_general %m, %m, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<8x4x4xf32>, tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  %rows = stablehlo.iota dim = 1 : tensor<8x4x4xi32>
  %cols = stablehlo.iota dim = 2 : tensor<8x4x4xi32>
  %diag = stablehlo.compare EQ, %rows, %cols : (tensor<8x4x4xi32>, tensor<8x4x4xi32>) -> tensor<8x4x4xi1>
  %five = stablehlo.constant dense<5.0> : tensor<8x4x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<8x4x4xf32>
  %eye5 = stablehlo.select %diag, %five, %zero : tensor<8x4x4xi1>, tensor<8x4x4xf32>
  %spd = stablehlo.add %gram, %eye5 : tensor<8x4x4xf32>
  %l = stablehlo.cholesky %spd, lower = true : tensor<8x4x4xf32>
  %below = stablehlo.compare GE, %rows, %cols : (tensor<8x4x4xi32>, tensor<8x4x4xi32>) -> tensor<8x4x4xi1>
  %lower = stablehlo.select %below, %l, %zero : tensor<8x4x4xi1>, tensor<8x4x4xf32>
  %x = "stablehlo.triangular_solve"(%l, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<8x4x4xf32>, tensor<8x4x3xf32>) -> tensor<8x4x3xf32>
  return %f, %g, %lower, %x : tensor<16x32xcomplex<f32>>, tensor<8x16x9xcomplex<f32>>, tensor<8x4x4xf32>, tensor<8x4x3xf32>
}
