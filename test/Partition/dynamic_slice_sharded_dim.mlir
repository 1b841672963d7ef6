// Dynamic slices of a stacked weight sharded on its layer dim (4 of 16 rows per
// device), at a start out of range on both sides (clamped to [0, 16 - size] on the
// GLOBAL value first, as the unpartitioned op does).
//   One row (%0): each device slices its part of the window out of its shard padded
//     with zeros, and the partial rows are summed: one all_reduce of one row
//     (2 * 3/4 * 32 B) instead of gathering the weight (3/4 * 512 B).
//   Twelve rows (%1): the partial windows would cost 2 * 3/4 * 384 B to sum; gathering
//     the weight costs 3/4 * 512 B, so insert-reshards all_gathers and slices.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x8xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[PADDED:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<6x8xf32>
// CHECK:         %[[ROW:.*]] = stablehlo.dynamic_slice %[[PADDED]], %{{.*}}, %{{.*}}, sizes = [1, 8] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK:         "stablehlo.all_reduce"(%[[ROW]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]>
// CHECK:         }) : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 {{.*}} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK:         stablehlo.dynamic_slice {{.*}} sizes = [12, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %layer: tensor<i32>)
    -> (tensor<1x8xf32>, tensor<12x8xf32>) {
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %c14 = stablehlo.constant dense<-14> : tensor<i32>
  %m = stablehlo.multiply %layer, %c5 : tensor<i32>
  %start = stablehlo.add %m, %c14 : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_slice %w, %start, %zero, sizes = [1, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
  %1 = stablehlo.dynamic_slice %w, %start, %zero, sizes = [12, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
  return %0, %1 : tensor<1x8xf32>, tensor<12x8xf32>
}
