// Every use of a constant expression gets its own copy first (Shardy's
// constant-or-scalar splitter), so users of one constant never pull each other's
// shardings through it; the checks are what the native pipeline gives.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @constant_shared_by_two_users(
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         stablehlo.add %arg0, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.add %arg1, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @constant_shared_by_two_users(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                        %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %0 = stablehlo.add %a, %c : tensor<8x16xf32>
  %1 = stablehlo.add %b, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @iota_shared(
// CHECK-SAME:    -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         stablehlo.add %arg0, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.add %arg1, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @iota_shared(%a: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                       %b: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> (tensor<8x16xi32>, tensor<8x16xi32>) {
  %c = stablehlo.iota dim = 0 : tensor<8x16xi32>
  %0 = stablehlo.add %a, %c : tensor<8x16xi32>
  %1 = stablehlo.add %b, %c : tensor<8x16xi32>
  return %0, %1 : tensor<8x16xi32>, tensor<8x16xi32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @broadcast_of_constant_shared(
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         stablehlo.add %arg0, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.add %arg1, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @broadcast_of_constant_shared(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                        %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %s = stablehlo.constant dense<1.0> : tensor<f32>
  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %0 = stablehlo.add %a, %c : tensor<8x16xf32>
  %1 = stablehlo.add %b, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// A broadcast of a scalar argument is split too (the "or scalar" of the splitter).
// CHECK-LABEL: func @broadcast_of_scalar_shared(
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         stablehlo.add %arg1, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         stablehlo.add %arg2, {{.*}}sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @broadcast_of_scalar_shared(%s: tensor<f32>,
                                      %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                      %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %0 = stablehlo.add %a, %c : tensor<8x16xf32>
  %1 = stablehlo.add %b, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
