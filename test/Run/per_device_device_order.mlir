// Device order: logical device d runs with partition_id d, and a mesh's
// device_ids decide which device holds which shard. Each device returns its
// partition id; the assembled global arrays show the layout.
//
// RUN: %python -c "import numpy as np; np.savez('%t.npz', out0=np.array([[3, 1], [2, 0]], np.uint32), out1=np.array([[3, 1, 2, 0]], np.uint32).T)"
// RUN: shardpy-run %s --expected %t.npz | FileCheck %s
//
// CHECK: out0: max abs error 0 ok
// CHECK: out1: max abs error 0 ok
// CHECK: check: PASS

module @device_order attributes {shardpy.per_device} {
  sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[3, 1, 2, 0]>
  func.func public @main() -> (tensor<1x1xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                               tensor<1x1xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) {
    %id = stablehlo.partition_id : tensor<ui32>
    %grid = stablehlo.reshape %id : (tensor<ui32>) -> tensor<1x1xui32>
    return %grid, %grid : tensor<1x1xui32>, tensor<1x1xui32>
  }
}
