// Several meshes in one module: nothing flows between values on different meshes
// (an op whose operands are on different meshes is left alone), not even between
// meshes with the same axes and another device order; values on one mesh propagate as
// usual. Same as the native sdy-propagation-pipeline, except that native lifts inlined
// meshes to a named sdy.mesh (sdy-lift-inlined-meshes) in the propagation pipeline,
// while shardpy does it in shardpy-import (test/Import/inlined_meshes.mlir), so
// shardpy-propagate alone keeps the sharding as written.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>
sdy.mesh @mesh_z8 = <["z"=8]>

// CHECK-LABEL: func @no_flow_between_meshes(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_z8, [{}, {"z"}]>}
// CHECK-SAME:    -> tensor<8x16xf32>
// CHECK:         %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
// CHECK:         %1 = stablehlo.negate %0 : tensor<8x16xf32>
func.func @no_flow_between_meshes(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                  %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_z8, [{}, {"z"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>
sdy.mesh @mesh_z8 = <["z"=8]>

// CHECK-LABEL: func @independent_values_on_two_meshes(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_z8, [{}, {"z"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_z8, [{}, {"z"}]>})
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_z8, [{}, {"z"}]>]>
func.func @independent_values_on_two_meshes(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                            %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_z8, [{}, {"z"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = stablehlo.negate %b : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>
sdy.mesh @mesh_x2_y4_permuted = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// CHECK-LABEL: func @same_axes_different_device_order(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4_permuted, [{}, {"y"}]>}
// CHECK-SAME:    -> tensor<8x16xf32>
// CHECK:         %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
func.func @same_axes_different_device_order(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                            %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4_permuted, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @inlined_mesh(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>})
// CHECK:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]>
func.func @inlined_mesh(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
