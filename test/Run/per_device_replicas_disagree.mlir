// Devices that hold the same shard must hold the same values: shardpy-run
// checks every replica, so a per-device program that breaks this fails.
// Here "x":(2)2 is the minor half of "x": devices 0 and 2 both hold shard 0,
// but each returns its own partition id.
//
// RUN: %python -c "import numpy as np; np.savez('%t.npz', out0=np.array([0, 1], np.uint32))"
// RUN: not shardpy-run %s --expected %t.npz | FileCheck %s
//
// CHECK: out0: max abs error 0 ok
// CHECK: out0 replicas: max abs error {{.*}} MISMATCH (devices holding the same shard disagree)
// CHECK: check: FAIL

module @replicas attributes {shardpy.per_device} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main() -> (tensor<1xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2}]>}) {
    %id = stablehlo.partition_id : tensor<ui32>
    %v = stablehlo.reshape %id : (tensor<ui32>) -> tensor<1xui32>
    return %v : tensor<1xui32>
  }
}
