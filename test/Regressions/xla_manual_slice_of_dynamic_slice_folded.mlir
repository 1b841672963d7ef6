// XFAIL: *
// Found by test/fuzz (the 10k run of 2026-11-27, seed 2739), minimized. NOT a shardpy
// bug: the known XLA:CPU fold of indexed_dynamic_slices (known_issues.py), met where a
// manual computation takes a dynamic_slice's result. XLA's partitioner, the reference
// for per-device code, slices each device's block out of the dynamic_slice and folds
// the two into one dynamic_slice that loses the start clamp (starts 19 and 18 clamp to
// 2 and 3); shardpy's program is right: manual_slice_of_dynamic_slice_vs_numpy.test
// checks it against numpy. The fuzzer's manual computations take no dynamic_slice
// results when indexed_dynamic_slices is off (`--disable known`, the CI batch). This
// test XPASSes once XLA computes it right.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func public @main(%arg0: tensor<8x6x5xf32>) -> tensor<8x8x1xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<20xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.slice %0 [19:20] : (tensor<20xi32>) -> tensor<1xi32>
    %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
    %4 = stablehlo.slice %0 [18:19] : (tensor<20xi32>) -> tensor<1xi32>
    %5 = stablehlo.reshape %4 : (tensor<1xi32>) -> tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %c, %3, %5, sizes = [8, 4, 2] : (tensor<8x6x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x4x2xf32>
    %7 = sdy.manual_computation(%6) in_shardings=[<@mesh, [{}, {}, {"c"}]>] out_shardings=[<@mesh, [{}, {"c"}, {}]>] manual_axes={"c"} (%arg1: tensor<8x4x1xf32>) {
      sdy.return %arg1 : tensor<8x4x1xf32>
    } : (tensor<8x4x2xf32>) -> tensor<8x8x1xf32>
    return %7 : tensor<8x8x1xf32>
  }
}
