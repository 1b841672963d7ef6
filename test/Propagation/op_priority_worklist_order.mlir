// Each level of op-priority propagation visits ops in program order, as Shardy's
// greedy driver does with every op in its worklist: an op whose last visit changed
// nothing (the xor at level 0: no operand sharded yet) keeps its place. Here both
// shifts wait for level 1 (their operands have other uses); there the left shift gives
// the xor [{"x"}, {"y"}]. The xor stays behind the right shift, which takes
// [{"y"}, {}] from %arg1 first, and the xor then meets the conflict on dim 0 and keeps
// only "y" on dim 1, as native Shardy does (and as jax.jit's output of
// (a << 3) ^ (b >> 1) is laid out). Before, a settled op was left out of the level's
// worklist and pushed on top when the left shift changed: visited before the right
// shift, it spread [{"x"}, {"y"}] back into it.
//
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(sdy-propagation-pipeline)' | FileCheck %s --check-prefix=NATIVE
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS
// CHECK: stablehlo.shift_left {{.*}}<@mesh, [{"x"}, {"y"}]>
// CHECK: stablehlo.shift_right_arithmetic {{.*}}<@mesh, [{"y"}, {}]>
// CHECK: stablehlo.xor {{.*}}<@mesh, [{}, {"y"}]>
// NATIVE: stablehlo.xor {{.*}}<@mesh, [{}, {"y"}]>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) {
  %c = stablehlo.constant dense<3> : tensor<8x16xi32>
  %0 = stablehlo.shift_left %arg0, %c : tensor<8x16xi32>
  %c_0 = stablehlo.constant dense<1> : tensor<8x16xi32>
  %1 = stablehlo.shift_right_arithmetic %arg1, %c_0 : tensor<8x16xi32>
  %2 = stablehlo.xor %0, %1 : tensor<8x16xi32>
  %3 = stablehlo.popcnt %arg0 : tensor<8x16xi32>
  %4 = stablehlo.count_leading_zeros %arg1 : tensor<8x16xi32>
  return %2, %3, %4 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>
}
