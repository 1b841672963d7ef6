// An embedding lookup from a vocab-sharded table (rows on "y"), ids split on "x": each
// device gathers from the rows it holds, with the GLOBAL index first clamped to
// [0, 15] (gather clamps; out-of-range ids here go to -54 .. 21) and then shifted by
// the shard's first row; rows of other shards are masked to zero and the partial rows
// are summed by one all_reduce over "y". The table is never gathered.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x8xf32>{{.*}}, %arg1: tensor<2x6xi32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[OFFSETS:.*]] = stablehlo.constant dense<[0, 4, 8, 12, 0, 4, 8, 12]> : tensor<8xi32>
// CHECK:         %[[OFF:.*]] = stablehlo.reshape {{.*}} -> tensor<i32>
// CHECK:         %[[LO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         %[[HI:.*]] = stablehlo.constant dense<15> : tensor<i32>
// CHECK:         %[[CLAMPED:.*]] = stablehlo.clamp %[[LO]], %[[IDS:.*]], %[[HI]]
// CHECK:         %[[LOCAL:.*]] = stablehlo.subtract %[[CLAMPED]],
// CHECK:         %[[ROWS:.*]] = "stablehlo.gather"(%arg0, %[[LOCAL]]) {{.*}}indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<2x6x1xi32>) -> tensor<2x6x8xf32>
// CHECK:         %[[MASKED:.*]] = stablehlo.select %{{.*}}, %[[ROWS]], %{{.*}} : tensor<2x6x8xi1>, tensor<2x6x8xf32>
// CHECK:         "stablehlo.all_reduce"(%[[MASKED]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%table: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %ids: tensor<4x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %c5 = stablehlo.constant dense<5> : tensor<4x6xi32>
  %c14 = stablehlo.constant dense<-14> : tensor<4x6xi32>
  %m = stablehlo.multiply %ids, %c5 : tensor<4x6xi32>
  %s = stablehlo.add %m, %c14 : tensor<4x6xi32>
  %i = stablehlo.reshape %s : (tensor<4x6xi32>) -> tensor<4x6x1xi32>
  %0 = "stablehlo.gather"(%table, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = true, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x6x1xi32>) -> tensor<4x6x8xf32>
  return %0 : tensor<4x6x8xf32>
}
