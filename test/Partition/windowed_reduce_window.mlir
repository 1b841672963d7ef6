// reduce_window on sharded windowed dims: each device fetches the halo its windows
// reach into (stablehlo.collective_permute from its neighbours) and reduces locally
// with the padding only the array's edges need (positions outside the array take the
// init value). Windows that stay inside shards need no communication.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func public @main(

// 3x3 max pool, stride 1, "SAME" padding, rows on "x" (4 per device), columns on "y"
// (8 per device): one row from each neighbour along "x" (device d+2 -> d and d -> d+2),
// then one column from each neighbour along "y" (of the rows already extended, so
// the corners come along); edges take -inf.
// CHECK:         %[[UP:.*]] = stablehlo.slice %arg0 [3:4, 0:8]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[UP]]) {{.*}}source_target_pairs = dense<{{\[\[}}0, 2], [2, 4], [4, 6], [1, 3], [3, 5], [5, 7]]> : tensor<6x2xi64>}> : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK:         %[[DOWN:.*]] = stablehlo.slice %arg0 [0:1, 0:8]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[DOWN]]) {{.*}}source_target_pairs = dense<{{\[\[}}2, 0], [4, 2], [6, 4], [3, 1], [5, 3], [7, 5]]> : tensor<6x2xi64>}> : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>}> : (tensor<6x1xf32>) -> tensor<6x1xf32>
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [3, 2], [5, 4], [7, 6]]> : tensor<4x2xi64>}> : (tensor<6x1xf32>) -> tensor<6x1xf32>
// CHECK:         %[[MAXPOOL:.*]] = "stablehlo.reduce_window"({{.*}}) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>}>
// CHECK:         }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<4x8xf32>

// 2x2 average pool, stride 2: every window inside a shard, nothing moves.
// CHECK-NOT:     collective_permute
// CHECK:         %[[AVG:.*]] = "stablehlo.reduce_window"(%arg1, {{.*}}) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}>
// CHECK:         }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32>

// Base dilation 2 (the transpose of a stride-2 window), window 2: result i reads
// inputs i/2 and (i+1)/2; shard k's 8 results need its 4 inputs and the first of the
// next shard.
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}}source_target_pairs = dense<{{\[\[}}2, 0], [4, 2], [6, 4], [3, 1], [5, 3], [7, 5]]> : tensor<6x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK:         %[[DILATED:.*]] = "stablehlo.reduce_window"({{.*}}) <{base_dilations = array<i64: 2, 1>, padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>}>
// CHECK:         }) : (tensor<5x4xf32>, tensor<f32>) -> tensor<8x4xf32>
// CHECK-NOT:     all_gather
// CHECK:         return %[[MAXPOOL]], %[[AVG]], %[[DILATED]]
func.func public @main(%a: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %c: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %ninf) <{padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) : (tensor<16x16xf32>, tensor<f32>) -> tensor<16x16xf32>
  %1 = "stablehlo.reduce_window"(%b, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x16xf32>, tensor<f32>) -> tensor<8x8xf32>
  %2 = "stablehlo.reduce_window"(%c, %zero) <{base_dilations = array<i64: 2, 1>, padding = dense<[[0, 2], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<32x4xf32>
  return %0, %1, %2 : tensor<16x16xf32>, tensor<8x8xf32>, tensor<32x4xf32>
}
