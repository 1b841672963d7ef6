// An op without results may still carry a sharding: JAX gives every op one, and a
// callback's call inside shard_map (jax.debug.callback, which returns nothing) gets
// one on the empty mesh. shardpy-to-local keeps the op as it is (it failed reading the
// op's result: "internal error ... Cannot call .result on operation
// stablehlo.custom_call which has 0 results"). Executed against jax.jit by
// test/python/frontend/test_jit_callbacks.py (test_callback_in_shard_map_runs_on_every_device).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @empty_mesh = <[]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[S:.*]] = stablehlo.reduce(%arg0 {{.*}} : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    stablehlo.custom_call @xla_ffi_python_cpu_callback(%[[S]]) {{.*}}has_side_effect = true{{.*}} : (tensor<f32>) -> ()
// CHECK:         return {{.*}} : tensor<4x4xf32>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    stablehlo.custom_call @xla_ffi_python_cpu_callback(%1) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, operand_layouts = [dense<> : tensor<0xindex>], result_layouts = [], sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh, []>]>} : (tensor<f32>) -> ()
    %2 = stablehlo.multiply %arg1, %arg1 : tensor<4x4xf32>
    sdy.return %2 : tensor<4x4xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
