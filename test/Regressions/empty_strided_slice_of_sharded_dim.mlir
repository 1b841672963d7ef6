// A slice to nothing (start == limit) with a stride, on a sharded dim: what
// lax.associative_scan's odd/even split makes of a dim of one element. Its halo
// window had (0 - 1) * stride + 1 elements: -1 with stride 2, an invalid (dynamic)
// tensor type, and shardpy-to-local failed ("invalid tensor dimension size") or crashed
// the process (jax.lax.associative_scan over a sharded dim, under shardpy.jit and
// shardpy-run). Now such a dim reads nothing from any shard. The fuzzer draws such
// slices (generate.py, `empty_slice_rng`); test_run_fuzz.py runs 5 seeds that failed.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x1xf32>, tensor<0x16xf32>) {
  %0 = stablehlo.slice %arg0 [0:8, 0:1:2] : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %1 = stablehlo.slice %arg0 [0:8, 2:2:2] : (tensor<8x16xf32>) -> tensor<8x0xf32>
  %2 = stablehlo.slice %arg0 [0:8, 0:0] : (tensor<8x16xf32>) -> tensor<8x0xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x0xf32>
  %4 = stablehlo.concatenate %0, %3, dim = 1 : (tensor<8x1xf32>, tensor<8x0xf32>) -> tensor<8x1xf32>
  %5 = stablehlo.slice %arg0 [5:5:3, 0:16] : (tensor<8x16xf32>) -> tensor<0x16xf32>
  return %4, %5 : tensor<8x1xf32>, tensor<0x16xf32>
}
