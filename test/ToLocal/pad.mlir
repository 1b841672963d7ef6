// A pad along a sharded dim (16 over 4 devices, padded 4 each side: 6 per device):
// halos move between neighbours by collective_permute (device 0's last 2 columns to
// device 1, device 3's first 2 to device 2), each device cuts its 6 columns from its
// block and halos at a per-device offset, and columns outside the operand are masked to
// the padding value with a select.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[PV:.*]] = stablehlo.constant dense<1.500000e+00> : tensor<f32>
// CHECK:         %[[H1:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK:         %[[H2:.*]] = "stablehlo.collective_permute"(%{{.*}}) <{{.*}}source_target_pairs = dense<{{\[\[}}3, 2]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK:         %[[W:.*]] = stablehlo.concatenate {{.*}} -> tensor<2x8xf32>
// CHECK:         %[[MINE:.*]] = stablehlo.dynamic_slice %[[W]], %{{.*}}, %{{.*}}, sizes = [2, 6] : (tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
// CHECK:         %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[PV]], dims = [] : (tensor<f32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %[[OUT:.*]] = stablehlo.select %{{.*}}, %[[MINE]], %[[FILL]] : tensor<2x6xi1>, tensor<2x6xf32>
// CHECK-NEXT:    return %[[OUT]] : tensor<2x6xf32>
func.func public @main(%arg0: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
  %0 = stablehlo.pad %arg0, %cst, low = [0, 4], high = [0, 4], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x16xf32>, tensor<f32>) -> tensor<2x24xf32>
  return %0 : tensor<2x24xf32>
}
