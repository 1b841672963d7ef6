// select_and_scatter (window 3, stride 2, padded high) along a sharded dim: the operand
// gets halos from both neighbours (masked to -inf outside it), the source gets the
// previous device's last row, the local select_and_scatter runs unpadded on those
// windows and the device's own 4 rows are sliced out of its 7.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[LO:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         %[[HI:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[W:.*]] = stablehlo.concatenate %[[LO]], %arg0, %[[HI]], dim = 0 : (tensor<2x4xf32>, tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<7x4xf32>
// CHECK:         %[[X:.*]] = stablehlo.select %{{.*}}, %[[W]], %{{.*}} : tensor<7x4xi1>, tensor<7x4xf32>
// CHECK:         %[[SH:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[SRC:.*]] = stablehlo.concatenate %[[SH]], %arg1, dim = 0 : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[SS:.*]] = "stablehlo.select_and_scatter"(%[[X]], %[[SRC]], %{{.*}}) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>}>
// CHECK:         }) : (tensor<7x4xf32>, tensor<3x4xf32>, tensor<f32>) -> tensor<7x4xf32>
// CHECK-NEXT:    %[[OUT:.*]] = stablehlo.slice %[[SS]] [2:6, 0:4] : (tensor<7x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    return %[[OUT]] : tensor<4x4xf32>
func.func public @main(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %cst) <{padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %1 = stablehlo.compare GE, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %1 = stablehlo.add %arg2, %arg3 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x4xf32>, tensor<8x4xf32>, tensor<f32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}
