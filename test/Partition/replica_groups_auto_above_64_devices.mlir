// Above 64 devices shardpy-to-local's default (compact=auto) names collective
// groups by mesh axes: 128 CPU host devices, the per-device program run and compared
// with one device (the all_gather over "a","b" and the all_reduce of the contraction
// over "b", with a sub-axis of "a" on the other operand's dim).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// CHECK-NOT: replica_groups = dense
// CHECK: replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "a", size = 16>, <name = "b", size = 8>]>
// CHECK-NOT: replica_groups = dense
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS
module @m128 attributes {mhlo.num_partitions = 128 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=16, "b"=8]>
  func.func public @main(%arg0: tensor<128x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a":(1)2}]>}) -> (tensor<128x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, tensor<8x8xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<128x4xf32>
    %1 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [0] x [0] : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    return %0, %1 : tensor<128x4xf32>, tensor<8x8xf32>
  }
}
