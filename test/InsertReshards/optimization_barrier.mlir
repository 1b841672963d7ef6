// stablehlo.optimization_barrier carries each value through with the sharding it was
// given (like a while carry): an operand is resharded to its result's sharding in front
// of the barrier, and a user wanting another layout reshards the result after it;
// nothing moves across the barrier itself.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[B:.*]] = sdy.reshard %arg1 <@mesh, [{"y"}, {"x"}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[OB:.*]]:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {"x"}]>]>} %arg0, %[[B]]
// CHECK-NEXT:    %[[B2:.*]] = sdy.reshard %[[OB]]#1 <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[OB]]#0, %[[B2]]
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %[[OB]]#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>}
// CHECK-NEXT:    %[[OUT:.*]] = sdy.reshard %[[NEG]] <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
// CHECK-NEXT:    return %[[ADD]], %[[OUT]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {"x"}]>]>} %arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>
  %1 = stablehlo.add %0#0, %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %2 = stablehlo.negate %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}
