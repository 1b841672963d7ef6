// convolution: along a sharded spatial dim (kernel 3, padded 1) each device gets one
// halo row from each neighbour (collective_permutes; the edges receive zeros, the
// padding) and convolves the 6-row window unpadded; with sharded input features the
// local convolution (4 -> 1 features each) is a partial sum finished by a sum
// all_reduce.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[LO:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// CHECK:         %[[HI:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT:    %[[W:.*]] = stablehlo.concatenate %[[LO]], %arg0, %[[HI]], dim = 1 : (tensor<2x1x4xf32>, tensor<2x4x4xf32>, tensor<2x1x4xf32>) -> tensor<2x6x4xf32>
// CHECK-NEXT:    %[[C0:.*]] = stablehlo.convolution(%[[W]], %arg1) {{.*}}window = {pad = {{\[\[}}0, 0]]} {{.*}} : (tensor<2x6x4xf32>, tensor<3x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:    %[[C1:.*]] = stablehlo.convolution(%arg2, %arg3) {{.*}} : (tensor<2x16x1xf32>, tensor<3x1x8xf32>) -> tensor<2x16x8xf32>
// CHECK-NEXT:    %[[R:.*]] = "stablehlo.all_reduce"(%[[C1]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>
// CHECK:         return %[[C0]], %[[R]]
func.func public @main(%arg0: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}, %arg1: tensor<3x4x8xf32>, %arg2: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>}, %arg3: tensor<3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) -> (tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}, tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  %1 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}], unreduced={"x"}>]>} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}, {}, {}]> : tensor<2x16x8xf32>
  return %0, %2 : tensor<2x16x8xf32>, tensor<2x16x8xf32>
}
