// shardpy-custom-partitioning asks the rule a custom_partitioning op's backend_config
// names; rules live in the process that lowered the program (JAX's registry), so a
// module read from a file gets one located error, never a traceback. shardpy.jit runs
// the pass in that process: test/python/frontend/test_jit.py
// (test_custom_partitioning_by_its_rule) checks its programs against jax.jit.
//
// RUN: not shardpy-opt %s --pass-pipeline='builtin.module(shardpy-propagate,shardpy-custom-partitioning)' 2>&1 | FileCheck %s
// CHECK: custom_partitioning_rule_not_here.mlir:[[# @LINE + 4]]:8: error: a jax.experimental.custom_partitioning op: its partition rule is a Python function of the process that lowered the program, so only shardpy.jit can partition it (its rule is not registered in this process)
// CHECK-NOT: Traceback
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @CustomSPMDPartitioning(%arg0) {api_version = 2 : i32, backend_config = "139678493471504", sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
