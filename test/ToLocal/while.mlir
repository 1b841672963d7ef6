// stablehlo.while: its carried values, and the block arguments of its cond and body
// regions, take the local shape of the loop's sharding (4x8 on [{"x"}, {"y"}]: 2x4);
// the counter stays a scalar.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<2x4xf32>
// CHECK:         %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[X:.*]] = %arg0) : tensor<i32>, tensor<2x4xf32>
// CHECK:         } do {
// CHECK:           %[[S:.*]] = stablehlo.sine %[[X]] : tensor<2x4xf32>
// CHECK-NEXT:      stablehlo.return %{{.*}}, %[[S]] : tensor<i32>, tensor<2x4xf32>
// CHECK:         return %[[W]]#1 : tensor<2x4xf32>
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<4x8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>]>}
  cond {
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    %2 = stablehlo.sine %iterArg_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}
