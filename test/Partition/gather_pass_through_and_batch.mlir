// Gathers that need no communication: the table sharded on its feature dim (a window
// dim taken whole: pass-through, the slice size becomes the local size), the ids on
// their batch dim, and explicit batching dims (operand_batching_dims /
// start_indices_batching_dims) sharded alike on the operand and the indices.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         "stablehlo.gather"(%arg0, {{.*}}slice_sizes = array<i64: 1, 2>}> : (tensor<16x2xf32>, tensor<4x6x1xi32>) -> tensor<4x6x2xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         "stablehlo.gather"(%arg2, {{.*}}operand_batching_dims = [0], start_indices_batching_dims = [1]{{.*}} : (tensor<4x16x2xf32>, tensor<5x4x1xi32>) -> tensor<5x4x2xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%table: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %ids: tensor<8x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %per_batch: tensor<8x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>},
                       %bids: tensor<5x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>},
        tensor<5x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {"y"}]>}) {
  %c3 = stablehlo.constant dense<3> : tensor<8x6xi32>
  %m = stablehlo.multiply %ids, %c3 : tensor<8x6xi32>
  %i = stablehlo.reshape %m : (tensor<8x6xi32>) -> tensor<8x6x1xi32>
  %0 = "stablehlo.gather"(%table, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<8x6x1xi32>) -> tensor<8x6x8xf32>
  %c3b = stablehlo.constant dense<3> : tensor<5x8xi32>
  %mb = stablehlo.multiply %bids, %c3b : tensor<5x8xi32>
  %ib = stablehlo.reshape %mb : (tensor<5x8xi32>) -> tensor<5x8x1xi32>
  %1 = "stablehlo.gather"(%per_batch, %ib) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<8x16x8xf32>, tensor<5x8x1xi32>) -> tensor<5x8x8xf32>
  return %0, %1 : tensor<8x6x8xf32>, tensor<5x8x8xf32>
}
