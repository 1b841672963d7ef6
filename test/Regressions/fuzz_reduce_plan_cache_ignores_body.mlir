// Found by test/fuzz, minimized.
// Was a bug, fixed in 2e2a98e (wrong result): shardpy- insert-reshards caches its plan
// per (op name, operand and result types, attributes, shardings) — then in
// explicit_reshards `_rule`/`_compute_op`, now partition/plan_cache.py — and a reduce's body and init value are not in the key. The
// min-reduce below reuses the plan of the add-reduce above it (same types, same
// `dimensions`): its result is marked unreduced={"x"} and finished with a *sum*
// all_reduce instead of a min, so the result is off (here 12.9 on a value of 4.3).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<f32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
  %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %1 = stablehlo.reduce(%arg1 init: %cst_0) applies stablehlo.minimum across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.multiply %0, %1 : tensor<f32>
  return %2 : tensor<f32>
}
