// A one-row dynamic_slice along a sharded dim: the global start is clamped to [0, 7]
// (as dynamic_slice does), made local (minus the shard's first row 2x, plus 1 for a
// zero row padded each side) and clamped to the padded block, so a device that does not
// hold the row reads zeros; the sum all_reduce over "x" finishes the row.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK:         %[[G:.*]] = stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<i32>
// CHECK-NEXT:    %[[L:.*]] = stablehlo.subtract %[[G]], %{{.*}} : tensor<i32>
// CHECK:         %[[P:.*]] = stablehlo.add %[[L]], %{{.*}} : tensor<i32>
// CHECK:         %[[S:.*]] = stablehlo.clamp %{{.*}}, %[[P]], %{{.*}} : tensor<i32>
// CHECK:         %[[PAD:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %[[ROW:.*]] = stablehlo.dynamic_slice %[[PAD]], %[[S]], %{{.*}}, sizes = [1, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[R:.*]] = "stablehlo.all_reduce"(%[[ROW]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>
// CHECK:         return %[[R]] : tensor<1x4xf32>
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i32>) -> tensor<1x4xf32> {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %c_0 = stablehlo.constant dense<-2> : tensor<i32>
  %0 = stablehlo.multiply %arg1, %c : tensor<i32>
  %1 = stablehlo.add %0, %c_0 : tensor<i32>
  %c_1 = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.dynamic_slice %arg0, %1, %c_1, sizes = [1, 4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}, {}]> : tensor<1x4xf32>
  return %3 : tensor<1x4xf32>
}
