// The printer and parser agree on every piece of sdy syntax JAX emits: the output keeps
// each construct, and printing the output again gives the same text (a fixed point).
// RUN: shardpy-opt %s | FileCheck %s
// RUN: shardpy-opt %s -o %t.1.mlir
// RUN: shardpy-opt %t.1.mlir -o %t.2.mlir
// RUN: shardpy-opt %s | shardpy-opt | shardpy-opt -o %t.3.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: diff %t.1.mlir %t.3.mlir

// CHECK-LABEL: module @roundtrip attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
module @roundtrip attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  // CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  // CHECK-NEXT: sdy.mesh @mesh_ids = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
  sdy.mesh @mesh_ids = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
  // CHECK-NEXT: sdy.mesh @maximal = <[], device_ids=[0]>
  sdy.mesh @maximal = <[], device_ids=[0]>

  // Sub-axes, open dims, priorities, replicated and unreduced axes; argument and result
  // shardings next to unrelated attributes.
  // CHECK-NEXT: func.func public @main(
  // CHECK-SAME: %arg0: tensor<8x16xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {"y":(1)2}], replicated={"y":(2)2}>}
  // CHECK-SAME: %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_ids, [{"a"}, {}]>}
  // CHECK-SAME: -> (tensor<8x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  func.func public @main(
      %arg0: tensor<8x16xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {"y":(1)2}], replicated={"y":(2)2}>},
      %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_ids, [{"a"}, {}]>})
      -> (tensor<8x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
    // An op sharding on an inlined mesh.
    // CHECK-NEXT: %[[DOT:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<mesh<["z"=8]>, [{"z"}, {?}]>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<mesh<["z"=8]>, [{"z"}, {?}]>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    // CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %[[DOT]] <@mesh, [{"x"}p0, {?}]> : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}p0, {?}]> : tensor<8x8xf32>
    // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[C]] <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %2 = sdy.reshard %1 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    // CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%[[R]]) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%[[ARG:.*]]: tensor<4x8xf32>) {
    // CHECK-NEXT:   %[[N:.*]] = stablehlo.negate %[[ARG]] : tensor<4x8xf32>
    // CHECK-NEXT:   sdy.return %[[N]] : tensor<4x8xf32>
    // CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x8xf32>) {
      %n = stablehlo.negate %a : tensor<4x8xf32>
      sdy.return %n : tensor<4x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    // A GSPMD sharding string survives untouched.
    // CHECK-NEXT: %[[CC:.*]] = stablehlo.custom_call @Sharding(%[[M]]) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    // CHECK-NEXT: return %[[CC]] : tensor<8x8xf32>
    return %4 : tensor<8x8xf32>
  }
}
