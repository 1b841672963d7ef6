// A 3-row max window (padded 1 each side) along a sharded dim: each device gets one
// halo row from each neighbour (collective_permutes up and down), rows outside the
// operand are masked to the init value (-inf) and the local reduce_window runs unpadded
// on the 6-row window, giving the device's 4 rows.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[LO:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK:         %[[HI:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[W:.*]] = stablehlo.concatenate %[[LO]], %arg0, %[[HI]], dim = 0 : (tensor<1x4xf32>, tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<6x4xf32>
// CHECK:         %[[M:.*]] = stablehlo.select %{{.*}}, %[[W]], %{{.*}} : tensor<6x4xi1>, tensor<6x4xf32>
// CHECK-NEXT:    %[[R:.*]] = "stablehlo.reduce_window"(%[[M]], %{{.*}}) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}>
// CHECK:         }) : (tensor<6x4xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT:    return %[[R]] : tensor<4x4xf32>
func.func public @main(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x4xf32>, tensor<f32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}
