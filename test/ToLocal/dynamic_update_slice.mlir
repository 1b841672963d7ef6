// A dynamic_update_slice of 3 rows into an operand sharded on the updated dim: the
// update is padded by a row each side, each device cuts the 2 rows that land on its
// block (at its local offset, clamped), keeps its own rows where the update does not
// reach (a select on the global row), and writes the result over its whole block.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.all_
// CHECK:         %[[PAD:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<5x4xf32>
// CHECK:         stablehlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK:         %[[MINE:.*]] = stablehlo.dynamic_slice %[[PAD]], %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[SEL:.*]] = stablehlo.select %{{.*}}, %[[MINE]], %arg0 : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK-NEXT:    %[[U:.*]] = stablehlo.dynamic_update_slice %arg0, %[[SEL]], %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[U]] : tensor<2x4xf32>
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x4xf32>, %arg2: tensor<i32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %c_0 = stablehlo.constant dense<-2> : tensor<i32>
  %0 = stablehlo.multiply %arg2, %c : tensor<i32>
  %1 = stablehlo.add %0, %c_0 : tensor<i32>
  %c_1 = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.dynamic_update_slice %arg0, %arg1, %1, %c_1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
