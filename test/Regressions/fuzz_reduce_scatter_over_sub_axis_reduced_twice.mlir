// Found by test/fuzz (`run_fuzz.py --seed 0 --count 2000`: seed 1572), minimized.
// Was a bug, fixed in 068a292 (wrong result): the dot's result is sharded [{"x":(1)2}]
// and partial over "x":(2)2 (its contraction is sharded on "x":(2)2); the result wants
// [{"x"}]. shardpy-reshard-to-collectives plans one `sdy.reduce_scatter [{"x":(2)2}]`
// (right). shardpy-to-local lowers it to a reduce_scatter over "x":(2)2 followed by an
// all_reduce over "x":(2)2 again: the partial axes left after the scatter are computed
// as `source.unreduced` minus the axes in the target's dims, compared as whole axis refs
// ("x":(2)2 is not found in ["x"]), so the scattered sum is summed a second time and the
// result is 2x the expected one.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>},
                       %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
