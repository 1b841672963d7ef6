// XFAIL: *
// Found by test/fuzz (`run_fuzz.py --long --seed 0`: seed 9485), minimized. NOT a
// shardpy bug: XLA:CPU (jaxlib 0.10.2) miscompiles this program inside a fully manual
// computation. Nothing here is sharded, so shardpy-partition leaves the body as it is
// (checked below); the per-device program is the global one, wrapped in a manual
// computation over the 8 devices, and XLA returns %arg1 for
// max(clamp(t, t, %arg1), t) with t = tanh(dot) = 1 > %arg1 (expected: t = 1), while
// the one-device compile returns 1. JAX reproduces it with no shardpy involved:
// jax.jit(jax.shard_map(f, mesh, in_specs=(P(), P()), out_specs=P())) vs jax.jit(f).
// The fuzzer leaves such clamps out (known_issues: crossed_clamp_bounds); this test
// XPASSes once XLA computes it right.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// IR: stablehlo.clamp %{{.*}}, %{{.*}}, %arg1
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<32x32x2xf32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.maximum %arg0, %arg0 : tensor<32x32x2xf32>
    %1 = stablehlo.dot_general %0, %0, batching_dims = [2] x [2], contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<32x32x2xf32>, tensor<32x32x2xf32>) -> tensor<2xf32>
    %2 = stablehlo.tanh %1 : tensor<2xf32>
    %3 = stablehlo.clamp %2, %2, %arg1 : tensor<2xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{}]> : tensor<2xf32>
    %5 = stablehlo.tanh %1 : tensor<2xf32>
    %6 = stablehlo.maximum %4, %5 : tensor<2xf32>
    return %6 : tensor<2xf32>
  }
}
