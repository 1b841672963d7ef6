// XFAIL: *
// Found by test/fuzz (`run_fuzz.py --long --seed 200000 --disable known`: seed
// 205191), minimized. NOT a shardpy bug: the one-device reference is wrong. XLA:CPU
// (jaxlib 0.10.2) folds dynamic_slice(transpose(dynamic_slice(x))) into one slice of x
// and loses the inner start clamp (the inner start, 12 on a dim of 8, must clamp to 7):
// numpy gives shardpy's partitioned result exactly and differs from the reference by
// 2.95. The same XLA bug as xla_dynamic_slice_of_dynamic_slice_folded.mlir (known
// issue `indexed_dynamic_slices`), through a transpose. XLA:CPU folds through
// broadcast_in_dim and reshapes that add or drop size-1 dims too (not through
// converts, reverses, slices, pads, elementwise ops or other reshapes: checked with
// jax.jit against numpy); with that switch off the fuzzer indexes no value made that
// way from a dynamic_slice. This test XPASSes once XLA computes the reference right.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[0, 2, 3, 1]>
  func.func public @main(%arg0: tensor<16xi32>, %arg1: tensor<20x32xi32>, %arg2: tensor<8x8x5x6x2xf32>) -> tensor<1x1x4x2x2xf32> {
    %c = stablehlo.constant dense<12> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.slice %arg1 [8:9, 12:13] : (tensor<20x32xi32>) -> tensor<1x1xi32>
    %1 = stablehlo.reshape %0 : (tensor<1x1xi32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.dynamic_slice %arg2, %c, %c_0, %1, %c_1, %c_2, sizes = [1, 4, 2, 4, 1] : (tensor<8x8x5x6x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x2x4x1xf32>
    %3 = stablehlo.transpose %2, dims = [4, 0, 1, 2, 3] : (tensor<1x4x2x4x1xf32>) -> tensor<1x1x4x2x4xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{}, {?}, {}, {}, {}]> : tensor<1x1x4x2x4xf32>
    %5 = stablehlo.add %arg0, %arg0 : tensor<16xi32>
    %6 = stablehlo.iota dim = 0 : tensor<16xi32>
    %7 = stablehlo.maximum %5, %6 : tensor<16xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.slice %7 [1:2] : (tensor<16xi32>) -> tensor<1xi32>
    %9 = stablehlo.reshape %8 : (tensor<1xi32>) -> tensor<i32>
    %10 = stablehlo.dynamic_slice %4, %c_3, %c_4, %c_5, %c_6, %9, sizes = [1, 1, 4, 2, 2] : (tensor<1x1x4x2x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4x2x2xf32>
    %11 = sdy.sharding_constraint %10 <@mesh, [{}, {}, {}, {?}, {}]> : tensor<1x1x4x2x2xf32>
    %12 = stablehlo.iota dim = 0 : tensor<1x1x4x2x2xi32>
    %13:2 = "stablehlo.sort"(%11, %12) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<i32>):
      %14 = stablehlo.compare GT, %arg3, %arg4, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %14 : tensor<i1>
    }) : (tensor<1x1x4x2x2xf32>, tensor<1x1x4x2x2xi32>) -> (tensor<1x1x4x2x2xf32>, tensor<1x1x4x2x2xi32>)
    return %13#0 : tensor<1x1x4x2x2xf32>
  }
}
