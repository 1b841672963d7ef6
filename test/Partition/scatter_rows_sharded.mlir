// A gradient table sharded on its rows (scatter's inserted window dim) takes
// replicated row updates: each device updates the rows it holds, with indices clamped
// to [-1, 16] (out of bounds stays out of bounds, no wrap-around) and shifted by its
// first row, so rows of other shards and out-of-range ids (-14 .. 21 here) are out of
// its local bounds: scatter skips them (the operand behind an optimization_barrier:
// XLA:CPU mis-scatters out-of-bounds indices into a dynamic_slice, see
// test/Regressions/fuzz_scatter_out_of_shard_into_dynamic_slice.mlir). No communication. The rewritten indices are
// no longer promised sorted or unique (flags dropped).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x8xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         stablehlo.constant dense<[0, 4, 8, 12]> : tensor<4xi32>
// CHECK:         %[[LO:.*]] = stablehlo.constant dense<-1> : tensor<i32>
// CHECK:         %[[HI:.*]] = stablehlo.constant dense<16> : tensor<i32>
// CHECK:         %[[C:.*]] = stablehlo.clamp %[[LO]], %{{.*}}, %[[HI]]
// CHECK:         %[[I:.*]] = stablehlo.subtract %[[C]],
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %arg0
// CHECK:         "stablehlo.scatter"(%[[B]], %[[I]], %arg2) <{indices_are_sorted = false, {{.*}}, unique_indices = false}>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%grad: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %ids: tensor<6xi32>, %rows: tensor<6x8xf32>)
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %iota = stablehlo.iota dim = 0 : tensor<6xi32>
  %c7 = stablehlo.constant dense<7> : tensor<6xi32>
  %c14 = stablehlo.constant dense<-14> : tensor<6xi32>
  %m = stablehlo.multiply %iota, %c7 : tensor<6xi32>
  %s = stablehlo.add %m, %c14 : tensor<6xi32>
  %i = stablehlo.reshape %s : (tensor<6xi32>) -> tensor<6x1xi32>
  %0 = "stablehlo.scatter"(%grad, %i, %rows) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
