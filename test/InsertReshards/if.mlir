// stablehlo.if (case's handler): each branch returns the if's result sharding, so the
// else branch's value on [{}, {"y"}] (its constraint, already met, leaves nothing) is
// resharded at its return and the then branch's is not; the result is resharded after
// the if for the func's result. EXEC runs both branches (seed 0: else, seed 2: then).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// RUN: shardpy-run %s --check --seed 2 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[IF:.*]] = "stablehlo.if"(%arg0) ({
// CHECK-NEXT:      %[[SIN:.*]] = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:      stablehlo.return %[[SIN]]
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[COS:.*]] = stablehlo.cosine %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT:      %[[B:.*]] = sdy.reshard %[[COS]] <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:      stablehlo.return %[[B]]
// CHECK-NEXT:    }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[R:.*]] = sdy.reshard %[[IF]] <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func public @main(%arg0: tensor<i1>, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = "stablehlo.if"(%arg0) ({
    %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %1 : tensor<4x8xf32>
  }, {
    %1 = stablehlo.cosine %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    stablehlo.return %2 : tensor<4x8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<i1>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
