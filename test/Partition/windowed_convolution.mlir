// convolution on shards. Batch and output features: local. Input features (the
// contraction): a partial sum, all-reduced where a whole value is needed. Spatial
// dims sharded like the output: input halos from the neighbours, then the local conv
// with the padding only the array's edges need. Feature and batch groups: the local
// conv's group counts follow the shards.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(

// 1. Kernel 3, "SAME" padding, rows on "x": one input row from each neighbour.
// CHECK:         %[[UP:.*]] = stablehlo.slice %arg0 [0:2, 3:4, 0:4]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[UP]]) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// CHECK:         %[[DOWN:.*]] = stablehlo.slice %arg0 [0:2, 0:1, 0:4]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[DOWN]]) {{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// CHECK:         %[[HALO:.*]] = stablehlo.convolution(%{{.*}}, %arg1) {{.*}} window = {pad = {{\[\[}}0, 0]]} {{.*}} : (tensor<2x6x4xf32>, tensor<3x4x8xf32>) -> tensor<2x4x8xf32>

// 2. Batch on "x": local, nothing moves.
// CHECK:         %[[BATCH:.*]] = stablehlo.convolution(%arg2, %arg1) {{.*}} : (tensor<1x16x4xf32>, tensor<3x4x8xf32>) -> tensor<1x16x8xf32>

// 3. Input features on "x" (lhs features and kernel input features): a partial sum
// over "x", all-reduced for the replicated result.
// CHECK:         %[[PARTIAL:.*]] = stablehlo.convolution(%arg3, %arg4) {{.*}} : (tensor<2x16x1xf32>, tensor<3x1x8xf32>) -> tensor<2x16x8xf32>
// CHECK-NEXT:    %[[CONTRACTED:.*]] = "stablehlo.all_reduce"(%[[PARTIAL]])

// 4. Depthwise (feature_group_count 8) with the features on "x": 2 groups per device.
// CHECK:         %[[DEPTHWISE:.*]] = stablehlo.convolution(%arg5, %arg6) {{.*}}batch_group_count = 1 : i64, feature_group_count = 2 : i64{{.*}} : (tensor<2x16x2xf32>, tensor<3x1x2xf32>) -> tensor<2x16x2xf32>

// 5. batch_group_count 4 (a weight gradient's grouped form), the groups on "x": one
// group per device.
// CHECK:         %[[GROUPED:.*]] = stablehlo.convolution(%arg7, %arg8) {{.*}}batch_group_count = 1 : i64, feature_group_count = 1 : i64{{.*}} : (tensor<2x16x4xf32>, tensor<3x4x2xf32>) -> tensor<2x14x2xf32>

// 6. A weight gradient: input and output gradient (the "kernel", 16 taps) both
// sharded along the spatial dim, the 3-tap result whole: each device correlates its
// taps with the input rows they read (its own plus one from each neighbour) and the
// partial results are summed over "x".
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
// CHECK:         %[[WGRAD:.*]] = stablehlo.convolution({{.*}}) {{.*}} : (tensor<6x4x2xf32>, tensor<4x4x3xf32>) -> tensor<3x2x3xf32>
// CHECK-NEXT:    %[[WSUM:.*]] = "stablehlo.all_reduce"(%[[WGRAD]])
// CHECK-NOT:     all_gather
// CHECK:         return %[[HALO]], %[[BATCH]], %[[CONTRACTED]], %[[DEPTHWISE]], %[[GROUPED]], %[[WSUM]]
func.func public @main(
    %x: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>},
    %k: tensor<3x4x8xf32>,
    %xb: tensor<4x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
    %xf: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>},
    %kf: tensor<3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>},
    %xd: tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>},
    %kd: tensor<3x1x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>},
    %xg: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
    %kg: tensor<3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>},
    %act: tensor<16x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
    %dout: tensor<16x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>})
    -> (tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>},
        tensor<4x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
        tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>},
        tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>},
        tensor<2x14x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>},
        tensor<3x2x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  %1 = stablehlo.convolution(%xb, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x4xf32>, tensor<3x4x8xf32>) -> tensor<4x16x8xf32>
  %2 = stablehlo.convolution(%xf, %kf) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  %3 = stablehlo.convolution(%xd, %kd) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64} : (tensor<2x16x8xf32>, tensor<3x1x8xf32>) -> tensor<2x16x8xf32>
  %4 = stablehlo.convolution(%xg, %kg) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<8x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x14x8xf32>
  %5 = stablehlo.convolution(%act, %dout) dim_numbers = [0, f, b]x[0, i, o]->[0, b, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<16x4x2xf32>, tensor<16x4x3xf32>) -> tensor<3x2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x16x8xf32>, tensor<4x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x14x8xf32>, tensor<3x2x3xf32>
}
