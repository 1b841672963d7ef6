// In partially manual code (manual over "x", "y" free) a collective may only group
// devices of one manual subgroup, that is devices equal along "y". XLA's partitioner
// rejects a group that crosses "y" ("manual all-reduce across devices that belong to
// different manual subgroups"), and shardpy rejects it the same way, naming the devices
// and the axis, instead of running it. Groups along "x" alone ({0,2}, {1,3}) are fine.
//
// RUN: not shardpy-opt %s --split-input-file --shardpy-partition 2>&1 | FileCheck %s
// CHECK: manual_collective_across_subgroups.mlir:[[# @LINE + 7]]:10: error: manual 'stablehlo.all_reduce' across devices that belong to different manual subgroups: devices 0 and 1 of one replica group differ along the free (non-manual) axis "y"
// CHECK-NOT: error
// CHECK-LABEL: func.func @main

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%l: tensor<4x8xf32>) {
    %r = "stablehlo.all_reduce"(%l) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %r : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%l: tensor<4x8xf32>) {
    %r = "stablehlo.all_reduce"(%l) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %r : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
