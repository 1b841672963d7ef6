// shardpy-export-gspmd writes sdy shardings as GSPMD strings, the way XLA prints
// them: iota forms for meshes without device_ids, explicit device lists with them,
// sub-axes as their own tile factors, manual computations as
// @SPMDFullToShardShape / @SPMDShardToFullShape pairs.
// RUN: shardpy-opt %s --split-input-file --shardpy-export-gspmd | FileCheck %s

// CHECK-LABEL: module @dp_tp
// CHECK-NOT:   sdy.
// CHECK:       func.func @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<32x64xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
// CHECK-SAME:  -> (tensor<16x64xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"})
// CHECK-NEXT:  %[[D:.*]] = stablehlo.dot_general {{.*}} {mhlo.sharding = "{devices=[2,4]<=[8]}"}
// CHECK-NEXT:  %[[C:.*]] = stablehlo.custom_call @Sharding(%[[D]]) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,4]<=[8]}"}
// CHECK-NEXT:  %[[R:.*]] = stablehlo.custom_call @Sharding(%[[C]]) {backend_config = "", mhlo.sharding = "{replicated}"}
// CHECK-NEXT:  return %[[R]]
module @dp_tp {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%a: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %w: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
      -> (tensor<16x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {"y", ?}]> : tensor<16x64xf32>
    %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<16x64xf32>
    return %2 : tensor<16x64xf32>
  }
}

// -----

// Sub-axes and device_ids: "y":(1)2 is the major half of "y", "y":(2)2 the minor
// one (XLA merges factors that stay adjacent: "x" and "y":(1)2). With device_ids
// the tile assignment lists devices (XLA sorts each replication group).
// CHECK-LABEL: module @sub_axes
// CHECK: mhlo.sharding = "{devices=[4,2]<=[4,2]T(1,0)}"
// CHECK: mhlo.sharding = "{devices=[2,1,4]4,5,6,7,0,1,2,3 last_tile_dim_replicate}"
module @sub_axes {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @ids = <["a"=2, "b"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
  func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2, "x"}, {"y":(1)2}]>},
                  %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@ids, [{"a"}, {}]>}) -> tensor<8x8xf32> {
    return %a : tensor<8x8xf32>
  }
}

// -----

// A manual computation: the global shardings on @Sharding calls around
// SPMDFullToShardShape/SPMDShardToFullShape, the body inlined, {manual} for a fully
// manual body, a manual subgroup for shardings inside a partly manual one.
// CHECK-LABEL: module @manual
// CHECK:      %[[S:.*]] = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}
// CHECK-NEXT: %[[F:.*]] = stablehlo.custom_call @SPMDFullToShardShape(%[[S]]) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[F]] {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}
// CHECK-NEXT: %[[M:.*]] = stablehlo.custom_call @Sharding(%[[N]]) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"}
// CHECK-NEXT: %[[T:.*]] = stablehlo.custom_call @SPMDShardToFullShape(%[[M]]) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %[[T]]
module @manual {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%a: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%l: tensor<8x8xf32>) {
      %1 = stablehlo.negate %l {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
      sdy.return %1 : tensor<8x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
