// A scatter-add whose updates (and ids) are split on their batch dim over "x", into a
// table sharded on features over "y": each device scatters its own updates. The
// initial table must count once: it is made unreduced on "x" (kept on the first
// device, zero on the other: a local select, no communication), the scatter's result
// is a partial sum over "x", and one all_reduce over "x" finishes it (groups {0,4},
// {1,5}, ...), 128 B per device. Updates are never gathered.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<16x2xf32>{{.*}}, %arg1: tensor<6xi32>{{.*}}, %arg2: tensor<6x2xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         stablehlo.constant dense<[1, 1, 1, 1, 0, 0, 0, 0]> : tensor<8xi32>
// CHECK:         %[[ONCE:.*]] = stablehlo.select %{{.*}}, %arg0, %{{.*}} : tensor<16x2xi1>, tensor<16x2xf32>
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %[[ONCE]]
// CHECK:         %[[S:.*]] = "stablehlo.scatter"(%[[B]], %{{.*}}, %arg2)
// CHECK:         "stablehlo.all_reduce"(%[[S]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%table: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %ids: tensor<12xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %rows: tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c3 = stablehlo.constant dense<3> : tensor<12xi32>
  %c2 = stablehlo.constant dense<2> : tensor<12xi32>
  %m = stablehlo.multiply %ids, %c3 : tensor<12xi32>
  %s = stablehlo.add %m, %c2 : tensor<12xi32>
  %i = stablehlo.reshape %s : (tensor<12xi32>) -> tensor<12x1xi32>
  %0 = "stablehlo.scatter"(%table, %i, %rows) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<12x1xi32>, tensor<12x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
