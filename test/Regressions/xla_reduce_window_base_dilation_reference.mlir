// XFAIL: *
// Found by test/fuzz/windowed.py (`--seed 10420 --op reduce_window`), minimized. NOT a
// shardpy bug: XLA:CPU (jaxlib 0.10.2) computes this reduce_window wrong on one device,
// so the unpartitioned reference is wrong (480 of 4096 values, errors up to ~5); the
// partitioned result matches numpy (reduce_window_base_dilation_vs_numpy.test). XLA:CPU
// hands the op to a YNNPACK fusion (__ynn_fusion), which reads garbage (NaN now and
// then) for reduce_windows with base dilation on one dim, a stride > 1 on another and
// padding; XLA_FLAGS=--xla_cpu_experimental_ynn_fusion_type= computes it right. JAX
// reproduces it with no shardpy involved: jax.jit(lambda x: lax.reduce_window(x, 0.,
// lax.add, (1, 2, 1), (1, 2, 3), [(2, 7), (2, 6), (1, 21)], base_dilation=(2, 1, 1)))
// vs numpy. The fuzzer leaves such windows out (known_issues:
// reduce_window_base_dilation); this test XPASSes once XLA computes them right.
// RUN: %python %S/Inputs/reduce_window_base_dilation_numpy.py %t.in.npz %t.expected.npz
// RUN: shardpy-run %s --reference --inputs %t.in.npz --expected %t.expected.npz | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<4x24x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) -> (tensor<16x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) {
    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 2, 1, 1>, padding = dense<[[2, 7], [2, 6], [1, 21]]> : tensor<3x2xi64>, window_dilations = array<i64: 1, 1, 1>, window_dimensions = array<i64: 1, 2, 1>, window_strides = array<i64: 1, 2, 3>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) : (tensor<4x24x24xf32>, tensor<f32>) -> tensor<16x16x16xf32>
    return %1 : tensor<16x16x16xf32>
  }
}
