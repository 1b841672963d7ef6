// reduce (one and several operands, e.g. argmax), reduce_window, select_and_scatter:
// kept dims pass through both ways; reduced dims stay on the inputs; windowed dims
// are shared by operand and result (number of windows). Scalar init values take no
// part. Same as the native sdy-propagation-pipeline (which spells the init constants
// sdy.constant on export), except that a select_and_scatter's source shares its
// windowed dims with the operand (native: the source's windowed dim must be whole).
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @reduce_sum(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>})
// CHECK:         %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}]>]>
func.func @reduce_sum(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @reduce_backward(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>})
// CHECK:         %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}]>]>
func.func @reduce_backward(%a: tensor<8x16xf32>) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.maximum across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @argmax(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}, tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>})
// CHECK:         %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK:         %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}]>, <@mesh_x2_y4, [{"x"}]>]>
func.func @argmax(%v: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                  %i: tensor<8x16xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%v init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
      %ge = stablehlo.compare GE, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %ge, %a, %c : tensor<i1>, tensor<f32>
      %k = stablehlo.select %ge, %b, %d : tensor<i1>, tensor<i32>
      stablehlo.return %m, %k : tensor<f32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @reduce_window(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK:         %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @reduce_window(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %ninf) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @reduce_window_backward(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>})
// CHECK:         %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK:         %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
func.func @reduce_window_backward(%a: tensor<8x16xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %ninf) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @select_and_scatter(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %cst) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @select_and_scatter(%operand: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                              %source: tensor<8x8xf32>) -> tensor<8x16xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%operand, %source, %zero) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %ge = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %ge : tensor<i1>
  }, {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
