// XFAIL: *
// Found by test/fuzz (`run_fuzz.py --long --seed 0`: seed 4665), minimized. NOT a
// shardpy bug: XLA:CPU (jaxlib 0.10.2) folds a gather of a dynamic_slice's result into
// one gather of the dynamic_slice's operand and loses the dynamic_slice's start clamp,
// so the unpartitioned reference is wrong: here the start (-1, -7) clamps to (0, 0) and
// the gather index 7 to 1, so the result is x[47, 1] = 0.5119 (what the partitioned
// program returns: its dynamic_slice is split per shard, nothing to fold), while the
// one-device compile returns -1.0436. JAX reproduces it with no shardpy involved:
//   f = lambda x, s, i: jnp.take_along_axis(lax.dynamic_slice(x, (0, s), (1, 2)), i,
//                                           axis=1, mode="clip")
//   jax.jit(f)(jnp.arange(48.).reshape(8, 6), 5, jnp.array([[0]]))  # 5., not 4.
// shardpy emits such pairs itself (a dynamic_slice of a replicated value's shard), so
// its scatter lowering keeps them apart with an optimization_barrier (see
// fuzz_scatter_out_of_shard_into_dynamic_slice.mlir). The fuzzer leaves gathers and
// scatters of dynamic_slice results out (known_issues: indexed_dynamic_slices); this
// test XPASSes once XLA computes it right.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func public @main(%arg0: tensor<20x16xi32>, %arg1: tensor<64x36xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<1x1xi32>) -> tensor<1x1xf32> {
  %0 = stablehlo.slice %arg1 [47:50:2, 0:36] : (tensor<64x36xf32>) -> tensor<2x36xf32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %1 = stablehlo.slice %arg0 [19:20, 1:2] : (tensor<20x16xi32>) -> tensor<1x1xi32>
  %2 = stablehlo.reshape %1 : (tensor<1x1xi32>) -> tensor<i32>
  %3 = stablehlo.dynamic_slice %0, %c, %2, sizes = [1, 2] : (tensor<2x36xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %4 = stablehlo.reshape %arg2 : (tensor<1x1xi32>) -> tensor<1x1x1xi32>
  %5 = "stablehlo.gather"(%3, %4) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<1x2xf32>, tensor<1x1x1xi32>) -> tensor<1x1xf32>
  %6 = sdy.sharding_constraint %5 <@mesh, [{}, {}]> : tensor<1x1xf32>
  return %6 : tensor<1x1xf32>
}
