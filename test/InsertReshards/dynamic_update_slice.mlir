// A dynamic_update_slice into an operand sharded on the updated dim, with a replicated
// update: nothing is moved and the result keeps [{"x"}, {}]; each device writes the
// part of the update that lands in its block (test/ToLocal/dynamic_update_slice.mlir).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK:         %[[U:.*]] = stablehlo.dynamic_update_slice %arg0, %arg1, %{{.*}}, %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    return %[[U]]
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x4xf32>, %arg2: tensor<i32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %c_0 = stablehlo.constant dense<-2> : tensor<i32>
  %0 = stablehlo.multiply %arg2, %c : tensor<i32>
  %1 = stablehlo.add %0, %c_0 : tensor<i32>
  %c_1 = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.dynamic_update_slice %arg0, %arg1, %1, %c_1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
