// Sharded operand dims a gather reads one element of: a size-1 window dim (not
// collapsed, indexed), and a collapsed dim no start index names (its start is 0: only
// the device holding row 0 contributes). Both are reduction factors: masked local
// gathers whose partial results are summed by one all_reduce over both axes; the
// indices are clamped globally (to [0, 7]) before the shift.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x4x6xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         stablehlo.compare EQ
// CHECK:         stablehlo.clamp {{.*}} : (tensor<i32>, tensor<5x1xi32>, tensor<i32>) -> tensor<5x1xi32>
// CHECK:         %[[G:.*]] = "stablehlo.gather"(%arg0, {{.*}}slice_sizes = array<i64: 1, 1, 6>}> : (tensor<4x4x6xf32>, tensor<5x1xi32>) -> tensor<5x1x6xf32>
// CHECK:         %[[M:.*]] = stablehlo.select %{{.*}}, %[[G]], %{{.*}} : tensor<5x1x6xi1>, tensor<5x1x6xf32>
// CHECK:         "stablehlo.all_reduce"(%[[M]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%x: tensor<8x8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>},
                       %ids: tensor<5x1xi32>)
    -> tensor<5x1x6xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<5x1xi32>
  %c2 = stablehlo.constant dense<-2> : tensor<5x1xi32>
  %m = stablehlo.multiply %ids, %c3 : tensor<5x1xi32>
  %s = stablehlo.add %m, %c2 : tensor<5x1xi32>
  %0 = "stablehlo.gather"(%x, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<8x8x6xf32>, tensor<5x1xi32>) -> tensor<5x1x6xf32>
  return %0 : tensor<5x1x6xf32>
}
