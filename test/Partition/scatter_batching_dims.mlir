// A scatter with explicit batching dims (input_batching_dims /
// scatter_indices_batching_dims) sharded alike on input, indices and updates over
// "x", and its window dim on "y" (a pass-through window the updates cover whole):
// each device scatters its batches into its block. No communication.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %arg0
// CHECK:         "stablehlo.scatter"(%[[B]], %{{.*}}, %arg2) <{indices_are_sorted = false, {{.*}}, unique_indices = false}>
// CHECK:         }) : (tensor<4x16x4xf32>, tensor<5x4x1xi32>, tensor<5x4x4xf32>) -> tensor<4x16x4xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%t: tensor<8x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>},
                       %ids: tensor<5x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %rows: tensor<5x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {"y"}]>})
    -> (tensor<8x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
  %c3 = stablehlo.constant dense<3> : tensor<5x8xi32>
  %c2 = stablehlo.constant dense<-2> : tensor<5x8xi32>
  %m = stablehlo.multiply %ids, %c3 : tensor<5x8xi32>
  %s = stablehlo.add %m, %c2 : tensor<5x8xi32>
  %i = stablehlo.reshape %s : (tensor<5x8xi32>) -> tensor<5x8x1xi32>
  %0 = "stablehlo.scatter"(%t, %i, %rows) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8x16x8xf32>, tensor<5x8x1xi32>, tensor<5x8x8xf32>) -> tensor<8x16x8xf32>
  return %0 : tensor<8x16x8xf32>
}
