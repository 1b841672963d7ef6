// sdy.propagation_barrier only steers propagation: insert-reshards drops it and its
// users read its operand, so its own sharding places no reshard. The add, wanting
// [{"y"}, {}], reshards %0 for itself as it would without the barrier; the negate reads
// %arg1 with nothing in between.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.propagation_barrier
// CHECK:         %[[SIN:.*]] = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[B:.*]] = sdy.reshard %[[SIN]] <@mesh, [{"y"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[B]], %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT:    return %[[ADD]], %[[NEG]]
// CHECK-NOT:     sdy.propagation_barrier
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=NONE {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x8xf32>
  %2 = stablehlo.add %1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x8xf32>
  %3 = sdy.propagation_barrier %arg1 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x8xf32>
  %4 = stablehlo.negate %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x8xf32>
  return %2, %4 : tensor<4x8xf32>, tensor<4x8xf32>
}
