// Found by test/fuzz (`run_fuzz.py --seed 0`: seeds 29 and 140), minimized.
// Was a bug, fixed in 068a292 (wrong result): the dot's contraction is sharded on "x",
// so its result is partial over "x"; the result sharding wants dim 0 on "x":(1)2.
// shardpy-reshard-to-collectives plans it right: `sdy.all_reduce {"x":(2)2}` (partial
// over "x" -> over "x":(1)2), then `sdy.reduce_scatter [{"x":(1)2}, {}]`.
// shardpy-to-local lowers the all_reduce over the axes `source.unreduced -
// target.unreduced` compared as whole axis refs ("x" minus "x":(1)2 = "x"), i.e. over
// all 4 devices (replica_groups [[0, 1, 2, 3]]) instead of "x":(2)2 ([[0, 1], [2, 3]]);
// the reduce_scatter then sums the full sums again and the result is 2x the expected
// one. It should reduce over the op's own axes ({"x":(2)2}).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x32xf32>, tensor<16x32xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}
