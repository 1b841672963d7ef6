// stablehlo.case: its branches are lowered in place (a collective inside a branch, here
// the all_slice of %arg2, becomes its local dynamic_slice there) and the case's result
// type shrinks to the local shape (2x4) that every branch returns.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[C:.*]] = "stablehlo.case"(%arg0) ({
// CHECK:           %[[B:.*]] = stablehlo.dynamic_slice %arg2, %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:      %[[S:.*]] = stablehlo.subtract %arg1, %[[B]] : tensor<2x4xf32>
// CHECK-NEXT:      stablehlo.return %[[S]] : tensor<2x4xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[SIN:.*]] = stablehlo.sine %arg1 : tensor<2x4xf32>
// CHECK-NEXT:      stablehlo.return %[[SIN]] : tensor<2x4xf32>
// CHECK-NEXT:    }) : (tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[G:.*]] = "stablehlo.all_gather"(%[[C]]) <{all_gather_dim = 1 : i64, {{.*}} : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    return %[[G]] : tensor<2x8xf32>
func.func public @main(%arg0: tensor<i32>, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = "stablehlo.case"(%arg0) ({
    %2 = sdy.all_slice [{"x"}, {}] %arg2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
    %3 = stablehlo.subtract %arg1, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %3 : tensor<4x8xf32>
  }, {
    %2 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %2 : tensor<4x8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<i32>) -> tensor<4x8xf32>
  %1 = sdy.all_gather [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
