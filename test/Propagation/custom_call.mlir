// custom_call: a `sdy.sharding_rule` attribute gives any target a rule; known targets
// (mhlo.erf...) have one built in; an unknown target gets a warning and no sharding
// flows through it (neither way).
// Native differences, legitimate: native drops the user-written sdy.sharding_rule
// attribute on export (sdy-drop-sharding-rules), shardpy keeps what the user wrote;
// native's warning names the target ("custom call @my_kernel is unknown to SDY
// sharding rule registry"), shardpy warns once per op name.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @rule_attribute(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>})
// CHECK:         %0 = stablehlo.custom_call @my_transpose(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
func.func @rule_attribute(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  %0 = stablehlo.custom_call @my_transpose(%x) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=16}>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @rule_attribute_backward(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.custom_call @my_bias_add(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @rule_attribute_backward(%x: tensor<8x16xf32>, %y: tensor<16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.custom_call @my_bias_add(%x, %y) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j])->([i, j]) {i=8, j=16}>} : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @known_target(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = stablehlo.custom_call @mhlo.erf(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @known_target(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @mhlo.erf(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @unknown_target(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> tensor<8x16xf32>
// CHECK:         %0 = stablehlo.custom_call @my_kernel(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK:         %1 = stablehlo.negate %0 : tensor<8x16xf32>
func.func @unknown_target(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  // expected-warning@+1 {{'stablehlo.custom_call' has no sharding rule: no sharding propagates through it (it will be computed replicated)}}
  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
