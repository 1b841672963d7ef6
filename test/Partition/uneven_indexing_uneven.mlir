// Indexed ops on a table whose rows are uneven (10 over "x"=4: 3, 3, 3, 1), the
// indices and update rows on "y" (5 over 2: 3 + 2).
//   gather   the vocab-sharded lookup: global index clamped to [0, 9] (not to the
//            padded 12), shifted to the shard, other rows masked: one all_reduce
//            over "x" of the 3x6 partial rows (108 B/device by the cost model).
//   scatter  each device adds the updates into the rows it holds (indices clamped to
//            [-1, 10] globally, an index of 10 or 11 lands in the padding), the
//            update rows split over "y" are summed: one all_reduce over "y" (72 B).
//   dynamic_slice  ranked by time (the shipped cpu profile, TIME lines): the table
//            gathered over "x" (one all_gather, 216 B, the padding row sliced off)
//            and the window (global start clamped to [0, 10 - 4]) sliced from it.
//            Ranked by bytes (%bytes_only, BYTES lines): each device slices its part
//            of the window out of its shard padded with zeros; one all_reduce over
//            "x" of the 4x6 window (144 B), which the cpu profile takes only for
//            larger windows. (Splitting the window's columns over "y" too, then
//            gathering them, moves fewer bytes, but it is a change of the result's
//            layout, which shardpy-choose-shardings makes only where it saves
//            measurable time: nothing is measurable under this profile.)
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefixes=CHECK,TIME
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefixes=CHECK,BYTES
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x6xf32>
// CHECK:         %[[HI:.*]] = stablehlo.constant dense<9> : tensor<i32>
// CHECK:         stablehlo.clamp %{{.*}}, %arg1, %[[HI]]
// CHECK:         "stablehlo.gather"(%arg0,
// CHECK:         "stablehlo.all_reduce"{{.*}}replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]>
// CHECK:         %[[SHI:.*]] = stablehlo.constant dense<10> : tensor<i32>
// CHECK:         stablehlo.clamp %{{.*}}, %{{.*}}, %[[SHI]]
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier
// CHECK:         "stablehlo.scatter"(%[[B]],
// CHECK:         "stablehlo.all_reduce"{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]>
// TIME:          %[[T:.*]] = "stablehlo.all_gather"(%arg0) {{.*}}replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]>{{.*}} : (tensor<3x6xf32>) -> tensor<12x6xf32>
// TIME:          %[[T10:.*]] = stablehlo.slice %[[T]] [0:10, 0:6]
// TIME:          %[[DHI:.*]] = stablehlo.constant dense<6> : tensor<i32>
// TIME:          %[[START:.*]] = stablehlo.clamp %{{.*}}, %arg3, %[[DHI]]
// TIME:          stablehlo.dynamic_slice %[[T10]], %[[START]], %{{.*}}, sizes = [4, 6]
// BYTES:         %[[DHI:.*]] = stablehlo.constant dense<6> : tensor<i32>
// BYTES:         stablehlo.clamp %{{.*}}, %arg3, %[[DHI]]
// BYTES:         stablehlo.pad {{.*}} low = [4, 0], high = [4, 0]{{.*}} : (tensor<3x6xf32>, tensor<f32>) -> tensor<11x6xf32>
// BYTES:         "stablehlo.all_reduce"{{.*}}replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func public @main(%table: tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %ids: tensor<5x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %rows: tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %start: tensor<i32>)
    -> (tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
        tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<4x6xf32>) {
  %g = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  %s = "stablehlo.scatter"(%table, %ids, %rows) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %z = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %z : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<5x1xi32>, tensor<5x6xf32>) -> tensor<10x6xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %d = stablehlo.dynamic_slice %table, %start, %zero, sizes = [4, 6] : (tensor<10x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  return %g, %s, %d : tensor<5x6xf32>, tensor<10x6xf32>, tensor<4x6xf32>
}
