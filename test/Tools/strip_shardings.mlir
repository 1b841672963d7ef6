// shardpy-strip-shardings leaves the single-device program: every mesh, sharding
// attribute (sdy and GSPMD), layout-only op and sharding group goes, named computations
// are inlined, and the module's partition counts are dropped; everything else stays.
// Manual computations are per-device code: a located error.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-strip-shardings | FileCheck %s

// CHECK-LABEL: module @everything attributes {mhlo.frontend_attributes = {foo = "bar"}} {
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x8xf32> {jax.buffer_donor = true}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:      %[[ADD:.*]] = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT:      %[[MUL:.*]] = stablehlo.multiply %[[ADD]], %[[ADD]] : tensor<8x8xf32>
// CHECK-NEXT:      return %[[MUL]] : tensor<8x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module @everything attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.frontend_attributes = {foo = "bar"}} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @other = <["a"=4], device_ids=[3, 2, 1, 0]>
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, jax.buffer_donor = true},
                         %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"})
      -> (tensor<8x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = sdy.reshard %arg1 <@other, [{"a"}, {}]> : tensor<8x8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
    sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = sdy.named_computation<"body">(%0, %2) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) {
      %4 = stablehlo.add %a, %b {mhlo.sharding = "{replicated}"} : tensor<8x8xf32>
      sdy.return %4 : tensor<8x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %5 = stablehlo.multiply %3, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
}

// -----

// sdy collectives and propagation barriers are layout-only too, also inside regions.
// CHECK-LABEL: func.func @collectives(%arg0: tensor<8x8xf32>, %arg1: tensor<i1>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %[[IF:.*]] = "stablehlo.if"(%arg1) ({
// CHECK-NEXT:      %[[ABS:.*]] = stablehlo.abs %arg0 : tensor<8x8xf32>
// CHECK-NEXT:      stablehlo.return %[[ABS]] : tensor<8x8xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      stablehlo.return %arg0 : tensor<8x8xf32>
// CHECK-NEXT:    }) : (tensor<i1>) -> tensor<8x8xf32>
// CHECK-NEXT:    return %[[IF]] : tensor<8x8xf32>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<i1>) -> tensor<8x8xf32> {
  %r = "stablehlo.if"(%arg1) ({
    %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %2 = sdy.all_slice [{}, {"y"}] %1 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %3 = sdy.propagation_barrier %2 allowed_direction=NONE : tensor<8x8xf32>
    %4 = stablehlo.abs %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
    stablehlo.return %4 : tensor<8x8xf32>
  }, {
    %5 = sdy.sharding_constraint %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
    stablehlo.return %5 : tensor<8x8xf32>
  }) : (tensor<i1>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// A module without shardings is left as it is.
// CHECK-LABEL: module @plain {
// CHECK-NEXT:    func.func @plain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      %[[N:.*]] = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK-NEXT:      return %[[N]] : tensor<4xf32>
module @plain {
  func.func @plain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// Errors: nothing printed for these chunks.
// CHECK-NOT: @manual
sdy.mesh @mesh = <["x"=2]>
func.func @manual(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' holds per-device code; it has no single-device meaning to run as a reference}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
    sdy.return %a : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-NOT: @gspmd_manual
func.func @gspmd_manual(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'SPMDFullToShardShape' holds per-device code}}
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @SPMDShardToFullShape(%0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
