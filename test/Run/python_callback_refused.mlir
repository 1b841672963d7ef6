// A module calling Python callbacks (what jax.debug.print, pure_callback and
// io_callback lower to) names each function by its index in the list of the process
// that lowered it. shardpy-run has no such list: one located error (before, XLA called
// through an index naming nothing and the process crashed). shardpy.jit runs them
// (test/python/frontend/test_jit_callbacks.py).
//
// RUN: not shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK: python_callback_refused.mlir:[[# @LINE + 5]]:8: error: the program calls a Python callback (jax.debug.print, jax.pure_callback, io_callback): its function lives in the process that lowered the program, so only shardpy.jit can run it
// CHECK-NOT: Traceback
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
