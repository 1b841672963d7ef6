// Dynamic slices of a stacked weight sharded on its layer dim (4 of 16 rows per
// device), at a start out of range on both sides (clamped to [0, 16 - size] on the
// GLOBAL value first, as the unpartitioned op does).
// Ranked by time (the shipped cpu profile, the CHECK lines): both slices read the weight
// gathered once (one all_gather, shared): one collective where computing on shards
// takes one per slice.
// Ranked by bytes (%bytes_only, the BYTES lines; the masked shards, which the cpu
// profile takes only for larger windows):
//   One row (%0): each device slices its part of the window out of its shard padded
//     with zeros, and the partial rows are summed: one all_reduce of one row
//     (2 * 3/4 * 32 B) instead of gathering the weight (3/4 * 512 B).
//   Twelve rows (%1): the weight gathered (3/4 * 512 B) and the window sliced. (Moving
//     "x" onto the columns first, all_to_all then all_gather of the 12x2 windows, moves
//     as many bytes and slices less per device, but it is a change of the result's
//     layout, which shardpy-choose-shardings makes only where it saves measurable
//     time: nothing is measurable under this profile.)
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=BYTES
// RUN: %bytes_only shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x8xf32>
// CHECK:         %[[W:.*]] = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 {{.*}} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK:         stablehlo.dynamic_slice %[[W]], {{.*}} sizes = [1, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK:         stablehlo.dynamic_slice %[[W]], {{.*}} sizes = [12, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"

// BYTES-LABEL: func.func public @main(
// BYTES-SAME:    %arg0: tensor<4x8xf32>
// BYTES-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// BYTES:         %[[PADDED:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<6x8xf32>
// BYTES:         %[[ROW:.*]] = stablehlo.dynamic_slice %[[PADDED]], %{{.*}}, %{{.*}}, sizes = [1, 8] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// BYTES:         "stablehlo.all_reduce"(%[[ROW]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]>
// BYTES:         }) : (tensor<1x8xf32>) -> tensor<1x8xf32>
// BYTES:         %[[WB:.*]] = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 {{.*}} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// BYTES:         stablehlo.dynamic_slice %[[WB]], {{.*}} sizes = [12, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
// BYTES-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
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
