// stablehlo.case: each branch is a block of its own, where an operand captured from
// outside is resharded for its user inside the branch (%arg2 in branch 0), and each
// branch returns the case's result sharding; the case's result is resharded after it to
// what its user (the func's result) wants.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[C:.*]] = "stablehlo.case"(%arg0) ({
// CHECK-NEXT:      %[[B:.*]] = sdy.reshard %arg2 <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:      %[[S:.*]] = stablehlo.subtract %arg1, %[[B]]
// CHECK-NEXT:      stablehlo.return %[[S]]
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[SIN:.*]] = stablehlo.sine %arg1
// CHECK-NEXT:      stablehlo.return %[[SIN]]
// CHECK-NEXT:    }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[R:.*]] = sdy.reshard %[[C]] <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func public @main(%arg0: tensor<i32>, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = "stablehlo.case"(%arg0) ({
    %1 = stablehlo.subtract %arg1, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %1 : tensor<4x8xf32>
  }, {
    %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %1 : tensor<4x8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
