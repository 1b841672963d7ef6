// Ops with side effects placed on one device (JAX places every Python callback on
// device 0: jax.debug.print, io_callback, pure_callback) run on that device only, as
// under XLA's partitioner: computed replicated (as other maximal values are), every
// device would print. Each goes into a fully manual computation under
// `partition_id == 0`; a result with users is gathered from every device and device 0's
// row taken. The per-device program checked here; execution (the callbacks are Python
// functions that only the process that lowered them has, so shardpy-run refuses them:
// test/Run/python_callback_refused.mlir) is proven against jax.jit by
// test/python/frontend/test_jit_callbacks.py.
//
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: "stablehlo.all_reduce"
// CHECK: %[[PID:.*]] = stablehlo.partition_id
// CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %[[ON:.*]] = stablehlo.compare EQ, %[[PID]], %[[ZERO]]
// CHECK: "stablehlo.if"(%[[ON]]) ({
// CHECK-NEXT: stablehlo.custom_call @xla_ffi_python_cpu_callback({{.*}}has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}
// CHECK-NEXT: stablehlo.return
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return
// CHECK-NEXT: }) : (tensor<i1>) -> ()
// CHECK: %[[ON2:.*]] = stablehlo.compare EQ
// CHECK: %[[R:.*]] = "stablehlo.if"(%[[ON2]]) ({
// CHECK-NEXT: %[[C:.*]] = stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {{.*}}index = 1 : ui64{{.*}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: stablehlo.return %[[C]]
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
// CHECK: %[[ROW:.*]] = stablehlo.reshape %[[R]] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT: %[[ALL:.*]] = "stablehlo.all_gather"(%[[ROW]]) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]>{{.*}} -> tensor<8x8x16xf32>
// CHECK-NEXT: stablehlo.slice %[[ALL]] [0:1, 0:8, 0:16]
// CHECK: stablehlo.add %{{.*}}, %arg0 : tensor<4x4xf32>

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, operand_layouts = [dense<> : tensor<0xindex>], result_layouts = [], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<f32>) -> ()
  %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {backend_config = "", mhlo.backend_config = {index = 1 : ui64}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
