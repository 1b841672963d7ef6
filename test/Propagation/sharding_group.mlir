// sharding_group: all members of a group share one sharding, whatever reaches any of
// them (a func argument, an open constraint) reaches all. shardpy keeps the
// sdy.sharding_group ops (native export removes them: a legitimate choice, the
// partitioner ignores them). Members with different user shardings: see
// sharding_group_conflicts.mlir.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @members_share(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
// CHECK:         %1 = stablehlo.exponential %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @members_share(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                         %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = stablehlo.exponential %b : tensor<8x16xf32>
  sdy.sharding_group %0 group_id = 0 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id = 0 : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @three_members_two_groups(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    %arg2: tensor<8x16xf32>)
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}, tensor<8x16xf32>)
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %1 = stablehlo.exponential %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %2 = stablehlo.sine %arg2 : tensor<8x16xf32>
func.func @three_members_two_groups(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = stablehlo.exponential %b : tensor<8x16xf32>
  %2 = stablehlo.sine %c : tensor<8x16xf32>
  sdy.sharding_group %0 group_id = 0 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id = 0 : tensor<8x16xf32>
  sdy.sharding_group %2 group_id = 1 : tensor<8x16xf32>
  sdy.sharding_group %a group_id = 0 : tensor<8x16xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @group_with_constraint(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %1 = stablehlo.exponential %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %2 = {{sdy.sharding_constraint|sdy.reshard}} %1 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
func.func @group_with_constraint(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = stablehlo.exponential %b : tensor<8x16xf32>
  %2 = sdy.sharding_constraint %1 <@mesh_x2_y4, [{"x", ?}, {?}]> : tensor<8x16xf32>
  sdy.sharding_group %0 group_id = 3 : tensor<8x16xf32>
  sdy.sharding_group %2 group_id = 3 : tensor<8x16xf32>
  return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
}
