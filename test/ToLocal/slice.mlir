// A slice along a sharded dim ([4:20] of 32 over 4 devices: 8 per device in, 4 out):
// the blocks holding each device's part are shifted to it by collective_permute (1 ->
// 2, 2 -> 3), a select keeps the local block where the part is local, and a
// dynamic_slice at a per-device offset cuts the 4 columns.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[P:.*]] = "stablehlo.collective_permute"(%arg0) <{{.*}}source_target_pairs = dense<{{\[\[}}1, 2], [2, 3]]> : tensor<2x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK:         %[[SEL:.*]] = stablehlo.select %{{.*}}, %arg0, %[[P]] : tensor<2x8xi1>, tensor<2x8xf32>
// CHECK:         stablehlo.constant dense<[4, 0, 4, 0]> : tensor<4xi32>
// CHECK:         %[[OUT:.*]] = stablehlo.dynamic_slice %[[SEL]], %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[OUT]] : tensor<2x4xf32>
func.func public @main(%arg0: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:2, 4:20] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x32xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}
