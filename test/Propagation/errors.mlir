// Invalid input: each error is reported once, on its line, as mlir-opt reports it
// (most come from the sdy verifier when the module is read), and never as a Python
// traceback. The native sdy-propagation-pipeline reports the same verifier errors.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-propagate
// RUN: not shardpy-opt %s --split-input-file --shardpy-propagate 2>&1 | FileCheck %s --check-prefix=NOTB
// RUN: not shardpy-opt %s --shardpy-propagate=strategy=fastest 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not shardpy-opt %s --shardpy-propagate=close-shardings=maybe 2>&1 | FileCheck %s --check-prefix=BADOPT-BOOL

// NOTB-NOT:  Traceback
// NOTB-NOT:  internal error
// NOTB:      errors.mlir:[[# @LINE + 9]]:1: error: 'func.func' op arg 0 - unknown axis name: "z"
// NOTB:      error: 'sdy.sharding_constraint' op unknown axis name: "w"
// NOTB-NOT:  Traceback
// NOTB-NOT:  internal error
// BADOPT:       {{^}}shardpy-opt: error: invalid value 'fastest' for option 'strategy' of pass 'shardpy-propagate' (one of: basic, aggressive, op-priority, user-priority)
// BADOPT-BOOL:  {{^}}shardpy-opt: error: {{.*}}close-shardings
sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{'func.func' op arg 0 - unknown axis name: "z"}}
func.func @unknown_axis(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"z"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{'func.func' op arg 0 - duplicate axis ref: "x"}}
func.func @axis_used_twice(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{'func.func' op arg 0 - unknown mesh: @mesh_nowhere}}
func.func @mesh_not_found(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_nowhere, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{'func.func' op arg 0 - dim 0 is empty and closed but has a priority}}
func.func @priority_on_closed_empty_dim(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}p1, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{'func.func' op arg 0 - sharding doesn't match tensor rank: 3 != 2}}
func.func @rank_mismatch(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

func.func @rank_mismatch_on_op(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'stablehlo.negate' op result - sharding doesn't match tensor rank: 1 != 2}}
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

func.func @barrier_both(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'sdy.propagation_barrier' op cannot specify `BOTH` as the direction}}
  %0 = sdy.propagation_barrier %a allowed_direction=BOTH : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{sub-axis next pre-size 3 doesn't divide the size of the full axis 4: "y":(1)3}}
func.func @sub_axis_not_dividing(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y":(1)3}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

func.func @constraint_unknown_axis(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'sdy.sharding_constraint' op unknown axis name: "w"}}
  %0 = sdy.sharding_constraint %a <@mesh_x2_y4, [{"w"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
