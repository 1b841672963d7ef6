// XFAIL: *
// Found by test/fuzz (`run_fuzz.py --long --seed 0`: seed 5180), minimized. NOT a
// shardpy bug: XLA:CPU (jaxlib 0.10.2) folds a dynamic_slice of a dynamic_slice's
// result into one dynamic_slice and clamps the summed start against the outer operand
// only, so the unpartitioned reference is wrong (%7's start must clamp to 2 within the
// 6 columns of %3). The partitioned program clamps each start explicitly (see
// lowering/indexing/) and is right. JAX reproduces it with no shardpy involved:
//   f = lambda x, s: lax.dynamic_slice(lax.dynamic_slice(x, (0, 0), (1, 6)), (0, s), (1, 4))
//   jax.jit(f)(jnp.arange(12).reshape(1, 12), 3)   # [[3 4 5 6]], not [[2 3 4 5]]
// The fuzzer leaves indexed ops of dynamic_slice results out (known_issues:
// indexed_dynamic_slices); this test XPASSes once XLA computes it right.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  func.func public @main(%arg0: tensor<2x20x12xi32>, %arg1: tensor<2x20x12xi32>, %arg2: tensor<1x10x3xi32>) -> tensor<1x20x4xi32> {
    %0 = stablehlo.reshape %arg1 : (tensor<2x20x12xi32>) -> tensor<2x20x3x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.slice %0 [0:1, 3:4, 1:2, 0:1] : (tensor<2x20x3x4xi32>) -> tensor<1x1x1x1xi32>
    %2 = stablehlo.reshape %1 : (tensor<1x1x1x1xi32>) -> tensor<i32>
    %3 = stablehlo.dynamic_slice %arg1, %c, %c_0, %2, sizes = [1, 20, 6] : (tensor<2x20x12xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x20x6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = "stablehlo.select_and_scatter"(%3, %arg2, %c_1) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 2, 2>, window_strides = array<i64: 1, 2, 2>}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %9 = stablehlo.compare GE, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %9 = stablehlo.add %arg3, %arg4 : tensor<i32>
      stablehlo.return %9 : tensor<i32>
    }) : (tensor<1x20x6xi32>, tensor<1x10x3xi32>, tensor<i32>) -> tensor<1x20x6xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.slice %4 [0:1, 9:10, 1:2] : (tensor<1x20x6xi32>) -> tensor<1x1x1xi32>
    %6 = stablehlo.reshape %5 : (tensor<1x1x1xi32>) -> tensor<i32>
    %7 = stablehlo.dynamic_slice %3, %c_2, %c_3, %6, sizes = [1, 20, 4] : (tensor<1x20x6xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x20x4xi32>
    %8 = sdy.sharding_constraint %7 <@mesh, [{?}, {}, {}]> : tensor<1x20x4xi32>
    return %8 : tensor<1x20x4xi32>
  }
}
