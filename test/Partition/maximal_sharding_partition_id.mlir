// An op placed on device k by a maximal sharding reads partition_id as device k has it:
// k. shardpy computes maximal values on every device (see
// maximal_sharding_computed_replicated.mlir), so where such an op reads partition_id,
// directly or through ops between, those reads become the constant k, in copies made
// for that op alone; other users keep reading their own device's id. Before, each
// device used its own id: x + [0, 1, 2, 3] on the four devices of an output declared
// whole, where device 1's placement means x + 1.
//
// out0: partition_id placed on device 1 itself (and its convert): x + 1.
// out1: partition_id unannotated, times 10 (a multiply with two users), plus 0, then
//       constrained onto device 2: the constraint places the add there (as Shardy
//       applies a closed constraint to an unannotated input), so it reads 2: x + 20.
// out2: the same multiply read by an op on device 3: x + 30 (out1's copy is its own).
// Propagation keeps the maximal shardings (Shardy's semantics); the partitioner's
// first pass places the ops and drops them.
//
// RUN: %python -c "import numpy as np; x = np.arange(8, dtype=np.int32).reshape(2, 4); np.savez('%t.in.npz', arg0=x); np.savez('%t.out.npz', out0=x + 1, out1=x + 20, out2=x + 30)"
// RUN: shardpy-run %s --inputs %t.in.npz --expected %t.out.npz 2>&1 | FileCheck %s
// CHECK: out0: max abs error 0 ok
// CHECK: out1: max abs error 0 ok
// CHECK: out2: max abs error 0 ok
// CHECK-NOT: replicas
// CHECK: check: PASS
//
// RUN: shardpy-opt %s --shardpy-propagate --shardpy-insert-reshards 2>&1 | FileCheck %s --check-prefix=PROP
// PROP: warning: a maximal sharding (the value on one device) is computed replicated
// PROP: %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<ui32>
// PROP: stablehlo.convert %[[ONE]]
// PROP: %[[PID:.*]] = stablehlo.partition_id
// PROP: %[[TEN:.*]] = stablehlo.multiply %[[PID]]
// PROP: %[[TWO:.*]] = stablehlo.constant dense<2> : tensor<ui32>
// PROP: %[[TEN2:.*]] = stablehlo.multiply %[[TWO]]
// PROP: stablehlo.add %[[TEN2]]
// PROP: %[[THREE:.*]] = stablehlo.constant dense<3> : tensor<ui32>
// PROP: stablehlo.multiply %[[THREE]]
// PROP-NOT: maximal_mesh_{{[0-9]}}, []

sdy.mesh @mesh = <["x"=4]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
sdy.mesh @maximal_mesh_2 = <[], device_ids=[2]>
sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
func.func public @main(%x: tensor<2x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<2x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<2x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<2x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %pid1 = stablehlo.partition_id {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : tensor<ui32>
  %one = stablehlo.convert %pid1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : (tensor<ui32>) -> tensor<i32>
  %b1 = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
  %out0 = stablehlo.add %x, %b1 : tensor<2x4xi32>
  %pid = stablehlo.partition_id : tensor<ui32>
  %c10 = stablehlo.constant dense<10> : tensor<ui32>
  %ten = stablehlo.multiply %pid, %c10 : tensor<ui32>
  %c0 = stablehlo.constant dense<0> : tensor<ui32>
  %plus0 = stablehlo.add %ten, %c0 : tensor<ui32>
  %on2 = sdy.sharding_constraint %plus0 <@maximal_mesh_2, []> : tensor<ui32>
  %i2 = stablehlo.convert %on2 : (tensor<ui32>) -> tensor<i32>
  %b2 = stablehlo.broadcast_in_dim %i2, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
  %out1 = stablehlo.add %x, %b2 : tensor<2x4xi32>
  %i3 = stablehlo.convert %ten {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, []>]>} : (tensor<ui32>) -> tensor<i32>
  %b3 = stablehlo.broadcast_in_dim %i3, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
  %out2 = stablehlo.add %x, %b3 : tensor<2x4xi32>
  return %out0, %out1, %out2 : tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>
}
