// sdy.sharding_group only ties shardings together for propagation (%arg1 got %0's
// [{"x"}, {"y"}] through it): insert-reshards erases the group ops and nothing else; no
// reshard is placed for them.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[SIN:.*]] = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[COS:.*]] = stablehlo.cosine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[SIN]], %[[COS]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    return %[[ADD]]
// CHECK-NOT:     sdy.sharding_group
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %1 = stablehlo.cosine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<4x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<4x8xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
