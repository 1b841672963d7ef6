// sdy.all_slice is local: a stablehlo.dynamic_slice whose start indices come from
// per-device tables indexed by stablehlo.partition_id (one table per sliced dim:
// dim 0 on "x" starts at 4x, dim 1 on "y" at 4y, for device 4x + y).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:  %[[PID:.*]] = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT:  %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT:  %[[T0:.*]] = stablehlo.constant dense<[0, 0, 0, 0, 4, 4, 4, 4]> : tensor<8xi32>
// CHECK-NEXT:  %[[E0:.*]] = stablehlo.dynamic_slice %[[T0]], %[[ID]], sizes = [1] : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[O0:.*]] = stablehlo.reshape %[[E0]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:  %[[T1:.*]] = stablehlo.constant dense<[0, 4, 8, 12, 0, 4, 8, 12]> : tensor<8xi32>
// CHECK-NEXT:  %[[E1:.*]] = stablehlo.dynamic_slice %[[T1]], %[[ID]], sizes = [1] : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[O1:.*]] = stablehlo.reshape %[[E1]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.dynamic_slice %arg0, %[[O0]], %[[O1]], sizes = [4, 4] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
// CHECK-NEXT:  return %[[S]] : tensor<4x4xf32>
// CHECK-NOT:   stablehlo.all_
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = sdy.all_slice [{"x"}, {"y"}] %a out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
