// chlo.top_k along a dim that is not sharded: computed on each device's rows, the
// rows staying sharded ("x" and "y"): no collective. chlo.top_k and the custom call
// JAX's approx_max_k emits on CPU (@ApproxTopK, whose iota operand is sharded alike).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/Inputs/ties_and_nans.py %t.npz f32:16x64
// RUN: shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
// CHECK:         chlo.top_k(%arg0, k = 8) : tensor<2x64xf32> -> (tensor<2x8xf32>, tensor<2x8xi32>)
// CHECK:         stablehlo.custom_call @ApproxTopK(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {{.*}} : (tensor<2x64xf32>, tensor<2x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
func.func public @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<16x8xf32>, tensor<16x8xi32>, tensor<16x4xf32>, tensor<16x4xi32>) {
  %v, %i = chlo.top_k(%a, k = 8) : tensor<16x64xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)
  %iota = stablehlo.iota dim = 1 : tensor<16x64xi32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %av:2 = stablehlo.custom_call @ApproxTopK(%a, %iota, %cst, %c) {backend_config = "", called_computations = [@top_k_gt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 4 : i64}} : (tensor<16x64xf32>, tensor<16x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<16x4xf32>, tensor<16x4xi32>)
  return %v, %i, %av#0, %av#1 : tensor<16x8xf32>, tensor<16x8xi32>, tensor<16x4xf32>, tensor<16x4xi32>
}

func.func private @top_k_gt_f32_comparator(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare GT, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %0 : tensor<i1>
}
