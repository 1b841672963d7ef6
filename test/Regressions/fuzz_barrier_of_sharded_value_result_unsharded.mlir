// Found by test/fuzz (issue 6 ops, 10,000-program run, seed 2923), minimized.
// Was a bug (error on a valid program): insert-reshards computes the Cholesky custom
// call on batch shards ("x":(2)2, its sdy.sharding_rule allows it), the transpose after
// it keeps them, and the optimization_barrier of the transposed value has no sharding
// (propagation gave it none: nothing uses it). A barrier operand was resharded only to
// a result sharding that exists, so the local barrier took a 2x2x4 operand for a
// 2x2x8 result: "'stablehlo.optimization_barrier' op requires the same type for operand
// and result at index 0". The same held for while carries. An operand of an
// unannotated barrier, while or branch result is now made whole, as at func.return.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=8]>

func.func public @main(%arg0: tensor<8x2x2xf32>) -> tensor<2xi32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x2x2xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"x":(2)2}, {?}]> : tensor<8x2x2xf32>
  %2 = stablehlo.dot_general %1, %1, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x2x2xf32>, tensor<8x2x2xf32>) -> tensor<8x2x2xf32>
  %cst = stablehlo.constant dense<[[3.000000e+00, 0.000000e+00], [0.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
  %3 = stablehlo.broadcast_in_dim %cst, dims = [1, 2] : (tensor<2x2xf32>) -> tensor<8x2x2xf32>
  %4 = stablehlo.add %2, %3 : tensor<8x2x2xf32>
  %5:2 = stablehlo.custom_call @lapack_spotrf_ffi(%4) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=8, j=2, k=2, l=2, m=2}, custom>} : (tensor<8x2x2xf32>) -> (tensor<8x2x2xf32>, tensor<8xi32>)
  %6 = stablehlo.transpose %5#0, dims = [2, 1, 0] : (tensor<8x2x2xf32>) -> tensor<2x2x8xf32>
  %7 = stablehlo.optimization_barrier %6 : tensor<2x2x8xf32>
  %8 = stablehlo.iota dim = 0 : tensor<2xi32>
  return %8 : tensor<2xi32>
}
