// iota and constant have no rule: they are sources whose sharding comes from their
// users (or their own sdy.sharding). A constant shared by two users is in
// bug_constant_splitting.mlir. Same as the native sdy-propagation-pipeline.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @iota_gets_user_sharding(
// CHECK-SAME:    %arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
// CHECK:         %1 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @iota_gets_user_sharding(%a: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
  %1 = stablehlo.add %0, %a : tensor<8x16xi32>
  return %1 : tensor<8x16xi32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @constant_gets_user_sharding(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>})
// CHECK:         %cst = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
// CHECK:         %0 = stablehlo.multiply %arg0, %cst {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
func.func @constant_gets_user_sharding(%a: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}) {
  %0 = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %1 = stablehlo.multiply %a, %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @sharded_iota_source(
// CHECK-SAME:    %arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
// CHECK:         %1 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @sharded_iota_source(%a: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %0 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : tensor<8x16xi32>
  %1 = stablehlo.add %0, %a : tensor<8x16xi32>
  return %1 : tensor<8x16xi32>
}
