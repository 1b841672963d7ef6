// Values that depend on where a device's shard starts are built per device: a sharded
// iota adds its shard's offset along the iota dim (read from a partition_id-indexed
// table: dim 1 on "y" starts at 4y); a non-splat constant is materialized whole and
// this device's block is cut out with dynamic_slice (offsets 4x and y); a splat
// constant just takes the local shape.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:       %[[ID:.*]] = stablehlo.convert %{{.*}} : (tensor<ui32>) -> tensor<i32>
// CHECK:       %[[IOTA:.*]] = stablehlo.iota dim = 1 : tensor<4x4xi32>
// CHECK:       %[[T:.*]] = stablehlo.constant dense<[0, 4, 8, 12, 0, 4, 8, 12]> : tensor<8xi32>
// CHECK-NEXT:  %[[E:.*]] = stablehlo.dynamic_slice %[[T]], %[[ID]], sizes = [1]
// CHECK-NEXT:  %[[OFF:.*]] = stablehlo.reshape %[[E]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:  %[[CONV:.*]] = stablehlo.convert %[[OFF]] : tensor<i32>
// CHECK-NEXT:  %[[SPREAD:.*]] = stablehlo.broadcast_in_dim %[[CONV]], dims = [] : (tensor<i32>) -> tensor<4x4xi32>
// CHECK-NEXT:  %[[SHIFTED:.*]] = stablehlo.add %[[IOTA]], %[[SPREAD]] : tensor<4x4xi32>
// CHECK:       %[[FULL:.*]] = stablehlo.constant dense<{{.*}}> : tensor<8x4xf32>
// CHECK:       stablehlo.constant dense<[0, 0, 0, 0, 4, 4, 4, 4]> : tensor<8xi32>
// CHECK:       stablehlo.constant dense<[0, 1, 2, 3, 0, 1, 2, 3]> : tensor<8xi32>
// CHECK:       %[[BLOCK:.*]] = stablehlo.dynamic_slice %[[FULL]], %{{.*}}, %{{.*}}, sizes = [4, 1] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1xf32>
// CHECK:       %[[SPLAT:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<4x1xf32>
// CHECK:       return %[[SHIFTED]], %[[BLOCK]], %[[SPLAT]]
func.func public @main()
    -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
        tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
        tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : tensor<8x16xi32>
  %1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0], [28.0, 29.0, 30.0, 31.0]]> : tensor<8x4xf32>
  %2 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} dense<2.0> : tensor<8x4xf32>
  return %0, %1, %2 : tensor<8x16xi32>, tensor<8x4xf32>, tensor<8x4xf32>
}
