// Found by test/fuzz (seed 9981257), minimized. An XLA:CPU bug (jaxlib 0.10.2) that
// shardpy steers around: compiling a summing all_reduce or reduce_scatter of complex
// values that XLA sees as a broadcast complex constant aborts the process in its
// AlgebraicSimplifier ("shape.h:843] Check failed: buffer != nullptr", under
// HandleBroadcast). jax.jit of a shard_map psum of jnp.full(4, 1+2j) aborts alike, no
// shardpy involved (test/python/fuzz/test_xla_cpu_bugs.py). Here the complex reduces
// over the sharded dim are finished by an all_reduce (%r, %e: XLA folds a reduce of
// zero elements to a broadcast of its init value, as in the fuzz program) and by a
// reduce_scatter (%t) of per-device partial sums of a broadcast constant (checked
// below; each of the three alone aborts). Before XLA:CPU compiles the per-device
// module, those sums now run on (real, imag) pairs of f32
// (python/shardpy/ir/cpu_complex_sums.py), and it runs.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// IR: %[[B:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<complex<f32>>) -> tensor<4x2xcomplex<f32>>
// IR: stablehlo.reduce(%[[B]] init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// IR-NEXT: "stablehlo.all_reduce"
// IR: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x2x0xcomplex<f32>>
// IR-NEXT: "stablehlo.all_reduce"
// IR: stablehlo.reduce(%[[B]] init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// IR-NEXT: "stablehlo.reduce_scatter"
// IR: }) : (tensor<4xcomplex<f32>>) -> tensor<1xcomplex<f32>>
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>
func.func public @main(%a: tensor<4x8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>},
        tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>},
        tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %w = stablehlo.constant dense<(1.0,2.0)> : tensor<complex<f32>>
  %z = stablehlo.constant dense<(0.0,0.0)> : tensor<complex<f32>>
  %b = stablehlo.broadcast_in_dim %w, dims = [] : (tensor<complex<f32>>) -> tensor<4x8xcomplex<f32>>
  %bs = sdy.sharding_constraint %b <@mesh, [{}, {"x"}]> : tensor<4x8xcomplex<f32>>
  %r = stablehlo.reduce(%bs init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
  %x = stablehlo.slice %a [0:4, 0:8, 0:0] : (tensor<4x8x3xf32>) -> tensor<4x8x0xf32>
  %c = stablehlo.complex %x, %x : tensor<4x8x0xcomplex<f32>>
  %e = stablehlo.reduce(%c init: %z) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x8x0xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
  %t = stablehlo.reduce(%bs init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
  %ts = sdy.sharding_constraint %t <@mesh, [{"x"}]> : tensor<4xcomplex<f32>>
  %o1 = func.call @parts(%r) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %o2 = func.call @parts(%e) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %o3 = func.call @parts(%ts) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  return %o1, %o2, %o3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// real + 2 imag: both parts read
func.func private @parts(%v: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  %re = stablehlo.real %v : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %im = stablehlo.imag %v : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %s = stablehlo.add %re, %im : tensor<4xf32>
  %o = stablehlo.add %s, %im : tensor<4xf32>
  return %o : tensor<4xf32>
}
