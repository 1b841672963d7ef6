// Found by test/fuzz (the linalg feature's first run: seeds 20034 and 20280), minimized.
// An XLA:CPU bug (jaxlib 0.10.2) that shardpy steers around: XLA lays an all_gather
// along dim 1 out with that dim most major ({2,0,1}) and hands the same layout to the
// fft reading it, whose thunk accepts only the default layout: at run time,
// "RET_CHECK failure (.../fft_thunk.cc:168)
// LayoutUtil::IsMonotonicWithDim0Major(input_shape_.layout())". jax.jit fails the same
// way on the same program, no shardpy involved:
//   f = jnp.fft.rfft2(jnp.tanh(a), s=(16, 2)), constrained to P(None, "x", None), and
//   f.real + f.imag out replicated, a: f32[5, 16, 2] on P(None, "x", None), 4 devices.
// shardpy-partition gathers the rfft's sharded transformed dim (checked below), as
// XLA's partitioner does; before XLA:CPU compiles the per-device module, the fft's
// operand and result go through the default layout (python/shardpy/ir/cpu_fft_layouts.py),
// and it runs. (test/python/frontend/test_jit_programs.py's fft_rfft2 failed the same
// way under shardpy.jit before that rewrite, once ffts were computed on batch shards.)
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// IR: %[[G:.*]] = "stablehlo.all_gather"(%{{.*}}) <{all_gather_dim = 1 : i64
// IR-NEXT: stablehlo.fft %[[G]], type = RFFT, length = [16, 2]
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>
func.func public @main(%a: tensor<5x16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>})
    -> (tensor<5x16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) {
  %t = stablehlo.tanh %a : tensor<5x16x2xf32>
  %f = stablehlo.fft %t, type = RFFT, length = [16, 2] : (tensor<5x16x2xf32>) -> tensor<5x16x2xcomplex<f32>>
  %re = stablehlo.real %f : (tensor<5x16x2xcomplex<f32>>) -> tensor<5x16x2xf32>
  %im = stablehlo.imag %f : (tensor<5x16x2xcomplex<f32>>) -> tensor<5x16x2xf32>
  %s = stablehlo.add %re, %im : tensor<5x16x2xf32>
  return %s : tensor<5x16x2xf32>
}
