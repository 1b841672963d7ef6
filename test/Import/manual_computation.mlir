// @Sharding -> @SPMDFullToShardShape ... @Sharding{manual} -> @SPMDShardToFullShape
// regions become sdy.manual_computation: fully manual ({manual}: every mesh axis),
// partially manual (last_tile_dims={manual, replicated}: the manual subgroup's axes),
// with the body inline (constants cloned in, other outside values passed in
// replicated) or called.
// RUN: shardpy-opt %s --split-input-file --shardpy-import | FileCheck %s

// CHECK-LABEL: func.func @full
// CHECK-NEXT:  %[[MC:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>] out_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>] manual_axes={"axis_0", "axis_1"} (%[[L:.*]]: tensor<8x8xf32>) {
// CHECK-NEXT:    %[[R:.*]] = func.call @body(%[[L]])
// CHECK-NEXT:    sdy.return %[[R]] : tensor<8x8xf32>
// CHECK-NEXT:  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:  return %[[MC]]
func.func @full(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> tensor<16x32xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x32xf32>) -> tensor<8x8xf32>
  %2 = call @body(%1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x8xf32>) -> tensor<16x32xf32>
  return %4 : tensor<16x32xf32>
}
func.func private @body(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// The manual subgroup of the entry's sharding names the manual axes; shardings on
// values inside keep only their free axes (here none: dropped), and a replicated
// input stays replicated. The @Sharding calls that fed the entries are folded in.
// CHECK-LABEL: func.func @partial
// CHECK-NEXT:  %[[MC:.*]] = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"axis_0"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"axis_0"}, {}]>] manual_axes={"axis_0"} (%[[A:.*]]: tensor<8x32xf32>, %[[W:.*]]: tensor<32x64xf32>) {
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %[[A]], %[[W]]
// CHECK-NEXT:    %[[C:.*]] = sdy.sharding_constraint %[[D]] <@mesh, [{}, {"axis_1"}]>
// CHECK-NEXT:    sdy.return %[[C]] : tensor<8x64xf32>
// CHECK-NEXT:  } : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
func.func @partial(%arg0: tensor<16x32xf32>, %arg1: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{replicated}"} : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %4 = stablehlo.dot_general %1, %3, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %6 = stablehlo.custom_call @Sharding(%5) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x64xf32>) -> tensor<16x64xf32>
  return %7 : tensor<16x64xf32>
}

// -----

// PyTorch/XLA style: the manual body inline. The constant it uses is cloned in;
// the broadcast computed outside comes in as a replicated operand. Two outputs, one
// manual computation; ops after it stay outside.
// CHECK-LABEL: func.func @inline
// CHECK:       %[[B:.*]] = stablehlo.broadcast_in_dim
// CHECK-NEXT:  %[[MC:.*]]:2 = sdy.manual_computation(%arg0, %[[B]]) in_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>, <@mesh, [{"axis_1"}, {"axis_0"}]>] manual_axes={"axis_0", "axis_1"} (%[[L:.*]]: tensor<4x8xf32>, %[[LB:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    %[[C:.*]] = stablehlo.constant dense<3.000000e+00> : tensor<4x8xf32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[L]], %[[LB]]
// CHECK-NEXT:    %[[N:.*]] = stablehlo.add %[[M]], %[[C]]
// CHECK-NEXT:    sdy.return %[[M]], %[[N]]
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[S:.*]] = stablehlo.add %[[MC]]#0, %[[MC]]#1
// CHECK-NEXT:  return %[[S]]
func.func @inline(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,2]0,1,2,3}"}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]0,1,2,3}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<4x8xf32>
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %c3 = stablehlo.constant dense<3.0> : tensor<4x8xf32>
  %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %3 = stablehlo.multiply %1, %2 {mhlo.sharding = "{manual}"} : tensor<4x8xf32>
  %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {mhlo.sharding = "{devices=[2,2]0,1,2,3}"} : (tensor<4x8xf32>) -> tensor<8x16xf32>
  %7 = stablehlo.add %3, %c3 : tensor<4x8xf32>
  %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {mhlo.sharding = "{devices=[2,2]0,2,1,3}"} : (tensor<4x8xf32>) -> tensor<8x16xf32>
  %9 = stablehlo.add %5, %8 : tensor<8x16xf32>
  return %9 : tensor<8x16xf32>
}
