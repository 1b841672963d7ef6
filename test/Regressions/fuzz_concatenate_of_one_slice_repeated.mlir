// Found by test/fuzz (issue 6 ops, 10,000-program run, seed 2152: a crash), minimized.
// Was a crash (segmentation fault in shardpy-to-local): a concatenate of one slice
// repeated (jnp.concatenate([s, s, s]) of s = x[7:11]) on a sharded dim is lowered as a
// roll of x (lowering/windowed/concatenate.py, lower_concatenate); afterwards it erased each operand's
// slice op once per use, so the same op three times: use after free. Each slice is
// erased once now.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.slice %arg0 [7:11] : (tensor<16xf32>) -> tensor<4xf32>
  %1 = stablehlo.concatenate %0, %0, %0, dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<12xf32>
  return %1 : tensor<12xf32>
}
