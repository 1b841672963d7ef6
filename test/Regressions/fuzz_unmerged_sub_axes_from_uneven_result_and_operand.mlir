// Found by test/fuzz (`run_fuzz.py --long --seed 0`: seeds 9447 and 9842, the same
// error on a dynamic_update_slice and on a concatenate; `--seed 100000`: seed 106026,
// on a sort), minimized. Was an error on a valid program: propagation (through the
// reshape, from the result's uneven {"x"}) gives the update %arg2
// [{"x":(2)2}, {"x":(1)2}, {}] and the dynamic_update_slice's result
// [{}, {"x":(1)2}, {}]. Dim 0 is only partly updated, so shardpy-insert-reshards moves
// its "x":(2)2 onto dim 1, next to "x":(1)2, and left the two halves of "x" unmerged,
// which fails verification: "two consecutive sub-axes can be merged: "x":(1)2,
// "x":(2)2". Fixed: insert-reshards merges consecutive sub-axes of a dim
// (partition/layouts.py, plain).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<16x4xf32>, %arg1: tensor<16x4x4xf32>, %arg2: tensor<2x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, ?}, {?}, {}]>}) -> (tensor<2x2x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {?}]> : tensor<16x4xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x4xf32>, tensor<16x4x4xf32>) -> tensor<4x4x4xf32>
    %2 = stablehlo.transpose %1, dims = [2, 0, 1] : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.dynamic_update_slice %2, %arg2, %c, %c_0, %c_1 : (tensor<4x4x4xf32>, tensor<2x4x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4x4xf32>
    %4 = stablehlo.reshape %arg2 : (tensor<2x4x2xf32>) -> tensor<2x2x2x2xf32>
    return %4 : tensor<2x2x2x2xf32>
  }
}
