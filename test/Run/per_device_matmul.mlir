// A hand-written per-device program runs through shardpy-run's PjRt path and
// matches numpy: a matmul whose contraction dim is sharded over "x" (partial
// products, then an all_reduce), the same partial result returned unreduced
// (assembled by summing over "x"), and each device's partition id.
//
// RUN: %python -c "import numpy as np; r = np.random.default_rng(1); x = r.standard_normal((8, 16)).astype(np.float32); w = r.standard_normal((16, 6)).astype(np.float32); np.savez('%t.in.npz', arg0=x, arg1=w); np.savez('%t.out.npz', out0=x @ w, out1=x @ w, out2=np.arange(4, dtype=np.uint32))"
// RUN: shardpy-run %s --inputs %t.in.npz --expected %t.out.npz | FileCheck %s
//
// CHECK: out0: float32[8, 6]
// CHECK: out0: max abs error {{.*}} ok
// CHECK: out1: max abs error {{.*}} ok
// CHECK: out2: max abs error 0 ok
// CHECK: check: PASS

module @row_sharded_matmul attributes {shardpy.per_device} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                         %w: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
          tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>},
          tensor<1xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %partial = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %sum = "stablehlo.all_reduce"(%partial) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %id = stablehlo.partition_id : tensor<ui32>
    %ids = stablehlo.reshape %id : (tensor<ui32>) -> tensor<1xui32>
    return %sum, %partial, %ids : tensor<8x6xf32>, tensor<8x6xf32>, tensor<1xui32>
  }
}
