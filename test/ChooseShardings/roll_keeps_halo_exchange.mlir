// jnp.roll(a, 3, axis=1) * 2 as jax.jit lowers it (the roll a private function of two
// slices and a concatenate), a sharded along the rolled dim. insert_reshards computes
// such a roll from a's shards by a halo exchange: one collective_permute of the 3
// shifted columns, wrapping around, and a concatenate. The whole-program choice costs the concatenate's pieces as gathered,
// and once moved "y" onto dim 0 around it (two all_to_alls of the whole array, 1.5-3x
// jax.jit's step); a roll's values now keep propagation's answer.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<8x256xf32>
// CHECK-NOT:     stablehlo.all_to_all
// CHECK-NOT:     stablehlo.all_gather
// CHECK:         "stablehlo.collective_permute"
// CHECK-SAME:    source_target_pairs = dense<{{\[\[}}3, 0], [0, 1], [1, 2], [2, 3], [7, 4], [4, 5], [5, 6], [6, 7]]>
// CHECK-SAME:    (tensor<8x3xf32>) -> tensor<8x3xf32>
// CHECK:         stablehlo.concatenate
// CHECK-NOT:     stablehlo.collective_permute
// CHECK-NOT:     stablehlo.all_to_all
// CHECK-NOT:     stablehlo.all_gather
// CHECK:         return
func.func public @main(%arg0: tensor<16x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<16x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = call @_roll_static(%arg0) : (tensor<16x1024xf32>) -> tensor<16x1024xf32>
  %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<16x1024xf32>
  return %2 : tensor<16x1024xf32>
}
func.func private @_roll_static(%arg0: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %0 = stablehlo.slice %arg0 [0:16, 1021:1024] : (tensor<16x1024xf32>) -> tensor<16x3xf32>
  %1 = stablehlo.slice %arg0 [0:16, 0:1021] : (tensor<16x1024xf32>) -> tensor<16x1021xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<16x3xf32>, tensor<16x1021xf32>) -> tensor<16x1024xf32>
  return %2 : tensor<16x1024xf32>
}
