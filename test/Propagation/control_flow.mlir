// while: each carried value, the body/cond block args and the while result share one
// sharding, fed by the init value and by what the body yields. case and if: each
// result is tied to what every branch returns, so one branch's sharding reaches the
// other branch. optimization_barrier: identity per operand.
// Native difference, legitimate: this jaxlib's Shardy does not give stablehlo.if data
// flow edges ("op 'stablehlo.if' is unknown to SDY sharding rule registry"), so native
// propagates nothing through an if; shardpy treats if like a two-branch case (JAX emits
// case for lax.cond), and gives exactly what native gives for the same module written
// with stablehlo.case. All other chunks: same as native.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @while_carry_from_init(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<i32>)
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, []>, <@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %2 = stablehlo.negate %iterArg_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @while_carry_from_init(%init: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                 %n: tensor<i32>) -> tensor<8x16xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %zero, %x = %init) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %y = stablehlo.negate %x : tensor<8x16xf32>
      stablehlo.return %next, %y : tensor<i32>, tensor<8x16xf32>
    }
  return %0#1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @while_carry_from_body(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<i32>,
// CHECK-SAME:    %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
// CHECK:         %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, []>, <@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %3 = stablehlo.multiply %iterArg_0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
// CHECK:         %1 = stablehlo.exponential %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>
func.func @while_carry_from_body(%init: tensor<8x16xf32>, %n: tensor<i32>,
                                 %w: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %zero, %x = %init) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %y = stablehlo.multiply %x, %w : tensor<8x16xf32>
      stablehlo.return %next, %y : tensor<i32>, tensor<8x16xf32>
    }
  %1 = stablehlo.exponential %0#1 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @case_branches_tied(
// CHECK-SAME:    %arg0: tensor<i32>,
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %0 = "stablehlo.case"(%arg0) ({
// CHECK:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         %1 = stablehlo.exponential %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @case_branches_tied(%index: tensor<i32>,
                              %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                              %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.case"(%index) ({
    %1 = stablehlo.negate %a : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }, {
    %2 = stablehlo.exponential %b : tensor<8x16xf32>
    stablehlo.return %2 : tensor<8x16xf32>
  }) : (tensor<i32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @if_result_backward(
// CHECK-SAME:    %arg0: tensor<i1>,
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}
// CHECK-SAME:    %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>})
// CHECK:         %0 = "stablehlo.if"(%arg0) ({
// CHECK:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
// CHECK:         %1 = stablehlo.exponential %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>
func.func @if_result_backward(%p: tensor<i1>, %a: tensor<8x16xf32>, %b: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}) {
  %0 = "stablehlo.if"(%p) ({
    %1 = stablehlo.negate %a : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }, {
    %2 = stablehlo.exponential %b : tensor<8x16xf32>
    stablehlo.return %2 : tensor<8x16xf32>
  }) : (tensor<i1>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @if_branches_combine(
// CHECK-SAME:    %arg0: tensor<i1>,
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = "stablehlo.if"(%arg0) ({
// CHECK:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
// CHECK:         %1 = stablehlo.exponential %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @if_branches_combine(%p: tensor<i1>,
                               %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", ?}, {?}]>},
                               %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{?}, {"y", ?}]>}) -> tensor<8x16xf32> {
  %0 = "stablehlo.if"(%p) ({
    %1 = stablehlo.negate %a : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }, {
    %2 = stablehlo.exponential %b : tensor<8x16xf32>
    stablehlo.return %2 : tensor<8x16xf32>
  }) : (tensor<i1>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @optimization_barrier(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}, tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>})
// CHECK:         %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>, <@mesh_x2_y4, [{"y"}]>]>
func.func @optimization_barrier(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                %b: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}]>}) {
  %0:2 = stablehlo.optimization_barrier %a, %b : tensor<8x16xf32>, tensor<16xf32>
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<16xf32>
}
