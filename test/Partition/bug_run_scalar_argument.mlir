// XFAIL: *
// BUG (shardpy-run, not the partitioner): a rank-0 argument makes `shardpy-run --check`
// fail with "internal error: TypeError: 'numpy.float32' object does not support item
// assignment": runtime.split_global writes `rows[device][()] `-style into a numpy
// scalar (rows[device] of a (num_devices,) array). --reference alone works.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

func.func public @main(%s: tensor<f32>, %b: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}]>}) {
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %b : tensor<4xf32>
  return %1 : tensor<4xf32>
}
