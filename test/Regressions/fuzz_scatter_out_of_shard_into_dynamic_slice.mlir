// Found by test/fuzz (issue 6 ops), minimized.
// Was a wrong value (out0: max abs error 6): a scatter into a dim sharded on "x"
// whose operand is a shard of a replicated value (the reshard is a dynamic_slice by
// partition id). Each device shifts the indices into its shard's frame, so an index
// outside its shard is out of bounds locally (skipped, as StableHLO says), and
// XLA:CPU (jaxlib 0.10.2) gets scatter(dynamic_slice(x), out-of-bounds index) wrong:
// it writes and reads rows at the wrong offset (plain JAX on one device too:
// scatter_min(lax.dynamic_slice(x, (0,), (2,)), [[2]], ...) on x = [2, 0, -4, -4] gives
// [2, -4]). Here the index -6 is out of range everywhere: the result must be the
// operand unchanged. Fixed by an optimization_barrier on the scatter's operands where
// the indices are shifted (lowering/indexing/scatter.py).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=2]>

func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<1xi32>, %arg2: tensor<1xi32>) -> tensor<4xi32> {
  %0 = stablehlo.slice %arg0 [1:5] : (tensor<8xi32>) -> tensor<4xi32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<4xi32>
  %2 = stablehlo.reshape %arg1 : (tensor<1xi32>) -> tensor<1x1xi32>
  %3 = "stablehlo.scatter"(%1, %2, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.minimum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<4xi32>, tensor<1x1xi32>, tensor<1xi32>) -> tensor<4xi32>
  return %3 : tensor<4xi32>
}
