// Found by test/fuzz (issue 6 ops), minimized.
// Was a bug (error on a valid program): the branches of a stablehlo.case return values
// sharded in different ways ("x":(1)2 and "x":(2)2 here) and propagation leaves the
// case's result without a sharding (whole). insert-reshards resharded a branch value
// only to a result sharding that exists, so the branches kept their own shardings and
// shardpy-to-local gave the case local result types that disagree: "'stablehlo.case'
// op inferred type(s) 'tensor<1x2x1xi32>' are incompatible with return type(s) of
// operation 'tensor<1x4x1xi32>'". A branch value of an unannotated result is now made
// whole at the return, as at func.return.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=8]>

func.func public @main(%arg0: tensor<i32>, %arg1: tensor<1x4x1xi32>) -> tensor<1x4x1xi32> {
  %0 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"x":(2)2}, {}]> : tensor<1x4x1xi32>
  %1 = "stablehlo.case"(%arg0) ({
    %2 = stablehlo.iota dim = 1 : tensor<1x4x1xi32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"x":(1)2}, {}]> : tensor<1x4x1xi32>
    stablehlo.return %3 : tensor<1x4x1xi32>
  }, {
    %2 = stablehlo.abs %0 : tensor<1x4x1xi32>
    stablehlo.return %2 : tensor<1x4x1xi32>
  }) : (tensor<i32>) -> tensor<1x4x1xi32>
  %4 = sdy.sharding_constraint %1 <@mesh, [{}, {}, {?}]> : tensor<1x4x1xi32>
  return %4 : tensor<1x4x1xi32>
}
