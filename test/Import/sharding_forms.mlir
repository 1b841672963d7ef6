// Every GSPMD sharding form on func arguments and results becomes an sdy sharding
// on one derived mesh (the iota forms, explicit device lists equal to a transposed
// iota, replication over trailing tile dims, {replicated}); {maximal device=k} gets
// its own maximal mesh and the mhlo.sharding attributes are gone.
// RUN: shardpy-opt %s --shardpy-import | FileCheck %s

// CHECK-LABEL: module @forms
// CHECK-NEXT:  sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2, "axis_2"=2]>
// CHECK-NEXT:  sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK-NOT:   sdy.mesh
// CHECK-NOT:   mhlo.sharding
module @forms {
  // CHECK:      @main(
  // iota
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0", "axis_1"}, {"axis_2"}]>}
  // transposed iota <=[2,4]T(1,0) on tile dims [4,2]
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"axis_1", "axis_2"}, {"axis_0"}]>}
  // the same as an explicit device list
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"axis_1", "axis_2"}, {"axis_0"}]>}
  // another transposed iota as a device list (<=[4,2]T(1,0) on tile dims [4,2])
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"axis_2", "axis_0"}, {"axis_1"}]>}
  // last_tile_dim_replicate: the replicated tile dim names no tensor dim
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>}
  // last_tile_dims={replicated}, the same in the newer spelling
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{}, {"axis_1", "axis_2"}]>}
  // {replicated}
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}
  // {maximal device=3}
  // CHECK-SAME: {sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}
  // other attributes stay
  // CHECK-SAME: {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>}
  func.func public @main(
      %a: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"},
      %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"},
      %c: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]0,4,1,5,2,6,3,7}"},
      %c2: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]0,2,4,6,1,3,5,7}"},
      %d: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
      %e: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={replicated}}"},
      %f: tensor<8x8xf32> {mhlo.sharding = "{replicated}"},
      %g: tensor<8x8xf32> {mhlo.sharding = "{maximal device=3}"})
      -> (tensor<8x8xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[2,2,2]<=[8] last_tile_dim_replicate}"}) {
    return %a : tensor<8x8xf32>
  }
}
