// sdy.named_computation is inlined: its body takes its place, the operand passes
// through a reshard (in_shardings [{}, {"y"}] then the body's [{"x"}, {"y"}], folded
// into one reshard) and the returned value through one to its out_shardings; no
// named_computation is left.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %[[IN]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[OUT:.*]] = sdy.reshard %[[NEG]] <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = stablehlo.exponential %[[OUT]]
// CHECK-NEXT:    %[[R:.*]] = sdy.reshard %[[E]] <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     sdy.named_computation
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = sdy.named_computation<"block">(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] (%arg1: tensor<4x8xf32>) {
    %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
