// mhlo.sharding on ops becomes sdy.sharding per result (tuple shardings: one element
// per result); custom_call @Sharding becomes sdy.sharding_constraint, with the dims
// listed in backend_config "unspecified_dims=[..]" left open.
// RUN: shardpy-opt %s --split-input-file --shardpy-import | FileCheck %s

// CHECK:     sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// CHECK-NOT: mhlo.sharding
func.func @main(%x: tensor<8x8xf32>, %i: tensor<i32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // CHECK: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {"axis_1"}]>]>}
  %0 = stablehlo.negate %x {mhlo.sharding = "{devices=[2,2]<=[4]}"} : tensor<8x8xf32>
  // CHECK: sdy.sharding_constraint %0 <@mesh, [{}, {"axis_0"}]> : tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "", mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: sdy.sharding_constraint %1 <@mesh, [{"axis_1", ?}, {?}]> : tensor<8x8xf32>
  %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // A constraint that leaves every dim open and names no axis says nothing: dropped.
  // CHECK-NOT: custom_call
  %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: stablehlo.while
  // CHECK-SAME: sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"axis_1"}, {}]>]>
  %4:2 = stablehlo.while(%c = %i, %v = %3) : tensor<i32>, tensor<8x8xf32> attributes {mhlo.sharding = "{{replicated}, {devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}}"}
    cond {
    %lim = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %c, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %c, %one : tensor<i32>
    // CHECK: stablehlo.sine %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_1"}, {}]>]>}
    %s = stablehlo.sine %v {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
    stablehlo.return %n, %s : tensor<i32>, tensor<8x8xf32>
  }
  // CHECK: return %{{.*}}#1, %2
  return %4#1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// XLA's Shardy round trip keeps sdy shardings in frontend attributes (xla.sdy.*); once
// the GSPMD sharding next to them is imported they are stale and go, the rest stays.
// CHECK-LABEL: func.func @frontend
// CHECK-SAME:  (%arg0: tensor<8xf32> {mhlo.frontend_attributes = {keep = "1"}, sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}]>})
// CHECK:       stablehlo.negate %arg0 {mhlo.frontend_attributes = {keep = "2"}, sdy.sharding
func.func @frontend(%x: tensor<8xf32> {mhlo.frontend_attributes = {keep = "1", xla.sdy.sharding = "#sdy.sharding<@m, [{\"x\"}]>"}, mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
  %0 = stablehlo.negate %x {mhlo.frontend_attributes = {keep = "2", xla.sdy.sharding = "#sdy.sharding_per_value<[<@m, [{\"x\"}]>]>"}, mhlo.sharding = "{devices=[2]<=[2]}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
