// A sort along a dim that is not sharded is computed on each device's rows as it is,
// the other dims staying sharded (here rows on "x" and "y" together): no collective,
// for a one-operand sort and for an argsort (values and an iota sorted together).
// Inputs full of ties, NaNs of both signs, +-0 and +-inf: the stable sort's order
// among equal keys is the unsplit one.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/Inputs/ties_and_nans.py %t.npz f32:16x64
// RUN: shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<2x64xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
// CHECK:         "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}>
// CHECK:         (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK:         %[[IOTA:.*]] = stablehlo.iota dim = 1 : tensor<2x64xi32>
// CHECK:         "stablehlo.sort"(%arg0, %[[IOTA]]) <{dimension = 1 : i64, is_stable = true}>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
func.func public @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<16x64xf32>, tensor<16x64xi32>) {
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %lt = stablehlo.compare LT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %iota = stablehlo.iota dim = 1 : tensor<16x64xi32>
  %1:2 = "stablehlo.sort"(%a, %iota) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>, %li: tensor<i32>, %ri: tensor<i32>):
    %gt = stablehlo.compare GT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<16x64xf32>, tensor<16x64xi32>) -> (tensor<16x64xf32>, tensor<16x64xi32>)
  return %0, %1#1 : tensor<16x64xf32>, tensor<16x64xi32>
}
