// Found by test/fuzz (`run_fuzz.py --seed 0 --count 2000 --disable sub_axes`: seed 50),
// minimized.
// Was a bug, worked around in 17c251c (the per-device program does not compile): the
// result wants dim 0 on "y", the concatenate is computed with dim 0 whole and dim 1 on
// "y", and shardpy-to-local moves "y" with `stablehlo.all_to_all` (split_dimension 0,
// concat_dimension 1) of the concatenate's local 4x8 result. That per-device program is
// valid StableHLO, but XLA:CPU rejects it after its own simplification (it turns the
// all-to-all of a concatenate into a tuple all-to-all of the concatenate's operands, one
// of them a transpose): "HLO all-to-all has operands with different shapes: the 0th
// operand shape f32[2,8], but the 1th operand has shape f32[2,8]". Most likely an XLA
// bug (layouts of the tuple operands differ); shardpy-to-local now puts such an
// all_to_all's operand behind an optimization barrier.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func public @main(%arg0: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %arg1: tensor<2x16xf32>)
    -> (tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<16x2xf32>) -> tensor<2x16xf32>
  %1 = stablehlo.concatenate %arg1, %0, dim = 0 : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
