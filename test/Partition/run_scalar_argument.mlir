// shardpy-run splits and runs rank-0 arguments (replicated scalars).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

func.func public @main(%s: tensor<f32>, %b: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}]>}) {
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %b : tensor<4xf32>
  return %1 : tensor<4xf32>
}
