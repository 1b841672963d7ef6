// Found by test/fuzz, minimized.
// Was a bug, fixed in 2e2a98e (invalid IR): a sum over two dims sharded on the sub-axes
// "x":(1)2 and "x":(2)2 is partial over all of "x". shardpy-insert-reshards marks the
// result unreduced={"x":(1)2, "x":(2)2}, concatenating the axes of each reduction factor
// (then explicit_reshards `_plan`, now partition/plan_choice.py) without merging adjacent
// sub-axes, and the verifier rejects it: "'stablehlo.reduce' op result - two consecutive
// sub-axes can be merged: "x":(1)2, "x":(2)2". Expected: unreduced={"x"}.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}) -> tensor<f32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
