// jax.experimental.custom_partitioning lowers to a custom call whose backend_config
// names a Python partition rule of the process that lowered it: one located error
// (shardpy.jit partitions such ops by their rules: partition/custom_partitioning.py).
//
// RUN: not shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK: custom_partitioning_refused.mlir:[[# @LINE + 4]]:8: error: a jax.experimental.custom_partitioning op: its partition rule is a Python function of the process that lowered the program, so only shardpy.jit can partition it
// CHECK-NOT: Traceback
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @CustomSPMDPartitioning(%arg0) {api_version = 2 : i32, backend_config = "139678493471504", sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
