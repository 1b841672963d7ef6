// Found by a new-user battery: shardpy.jit refused float8_e4m3fn and float8_e5m2
// arguments that jax.jit takes ("argument 0 has element type f8E4M3FN, which shardpy-run
// cannot exchange with numpy"): ir/types.numpy_dtype knew no 8-bit float. They map to
// ml_dtypes' (jnp.float8_*), so they cross the boundary of shardpy.jit and shardpy-run
// as bf16 does. Fixed in the commit that added this test. A dot of two f8 operands
// with an f32 result over a sharded contracting dim (partial products, an all_reduce),
// and an f8 value moved by a transpose (its shards stay put).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR: stablehlo.dot_general
// IR-SAME: (tensor<8x4xf8E4M3FN>, tensor<4x4xf8E4M3FN>) -> tensor<8x4xf32>
// IR: "stablehlo.all_reduce"
// CHECK: out1: float8_e5m2[16, 8]
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8x16xf8E4M3FN> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<16x4xf8E4M3FN> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8x16xf8E5M2> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x4xf32>, tensor<16x8xf8E5M2>) {
  %d = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf8E4M3FN>, tensor<16x4xf8E4M3FN>) -> tensor<8x4xf32>
  %t = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<8x16xf8E5M2>) -> tensor<16x8xf8E5M2>
  return %d, %t : tensor<8x4xf32>, tensor<16x8xf8E5M2>
}
