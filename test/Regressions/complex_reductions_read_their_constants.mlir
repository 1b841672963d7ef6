// Found by a new-user battery (jnp.sum and jnp.cumsum of complex64 arrays under
// shardpy.jit). Was an internal error: jaxlib's bindings cannot read a dense constant
// of complex elements (`op.attributes["value"]` raised "Can't cast unknown element type
// DenseTypedElementsAttr", and through a NamedAttribute aborted the process), so
// looking at a reduce's init value failed; then a cumulative sum's halo made its
// identity as an integer attribute of complex type, which crashed the process. Fixed
// in the commit that added this test: shardpy registers a caster that gives complex
// dense attributes the generic class (ir/jaxlib_bridge.py), reads complex splats
// (ir/utils.complex_splat) and makes complex scalars from numpy. The sum over the
// sharded dim is now an all_reduce of partial sums (it was an all_gather).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR: stablehlo.reduce
// IR: "stablehlo.all_reduce"
// IR: (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<8x16xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8xcomplex<f32>>, tensor<8x16xcomplex<f32>>) {
  %zero = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
  %sum = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.add across dimensions = [1]
      : (tensor<8x16xcomplex<f32>>, tensor<complex<f32>>) -> tensor<8xcomplex<f32>>
  %cumsum = "stablehlo.reduce_window"(%arg0, %zero) <{window_dimensions = array<i64: 1, 16>,
      padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
      %r = stablehlo.add %a, %b : tensor<complex<f32>>
      stablehlo.return %r : tensor<complex<f32>>
  }) : (tensor<8x16xcomplex<f32>>, tensor<complex<f32>>) -> tensor<8x16xcomplex<f32>>
  return %sum, %cumsum : tensor<8xcomplex<f32>>, tensor<8x16xcomplex<f32>>
}
