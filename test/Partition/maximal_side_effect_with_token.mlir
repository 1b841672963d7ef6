// An ordered io_callback (io_callback(..., ordered=True)) threads a token through @main;
// JAX places it on device 0. A token cannot be gathered, so the conditional on the
// partition id stays in the program (elsewhere the token passes through and the result
// is zeros) and only the tensor result is gathered and device 0's row taken, in a
// manual computation. The per-device program keeps the token in @main: shardpy.jit
// passes JAX's (test/python/frontend/test_jit_callbacks.py, test_ordered_io_callbacks,
// runs it against jax.jit: one call, in order across calls).
//
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: func.func public @main(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<4x4xf32>
// CHECK: %[[PID:.*]] = stablehlo.partition_id
// CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %[[ON:.*]] = stablehlo.compare EQ, %[[PID]], %[[ZERO]]
// CHECK-NEXT: %[[IF:.*]]:2 = "stablehlo.if"(%[[ON]]) ({
// CHECK-NEXT: %[[CALL:.*]]:2 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0,
// CHECK-NEXT: stablehlo.return %[[CALL]]#0, %[[CALL]]#1 : !stablehlo.token, tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: stablehlo.return %arg0, %[[Z]] : !stablehlo.token, tensor<f32>
// CHECK: stablehlo.reshape %[[IF]]#1 : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: "stablehlo.all_gather"
// CHECK-NEXT: stablehlo.slice {{.*}} [0:1]
// CHECK: return %[[IF]]#0, {{.*}} : !stablehlo.token, tensor<4x4xf32>

  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]> {stablehlo.mesh = {axes = [], device_ids = dense<0> : tensor<1xi64>}}
  func.func public @main(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (!stablehlo.token {jax.token = true}, tensor<8x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %1:2 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0, %0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], result_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@maximal_mesh_0, []>]>} : (!stablehlo.token, tensor<f32>) -> (!stablehlo.token, tensor<f32>)
    %2 = stablehlo.broadcast_in_dim %1#1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %3 = stablehlo.multiply %arg1, %2 : tensor<8x16xf32>
    return %1#0, %3 : !stablehlo.token, tensor<8x16xf32>
  }

