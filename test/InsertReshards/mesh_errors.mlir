// Ops whose values lie on different meshes: an op runs on its results' mesh and its
// operands on another mesh are moved onto it (the reshard planner's cross-mesh plans);
// operands on two meshes with no result sharding to say where the op runs, or results
// on two meshes, are one located error naming both meshes, exit 1, no traceback.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-insert-reshards
// RUN: not shardpy-opt %s --split-input-file --shardpy-partition 2>&1 | FileCheck %s
// CHECK-NOT: Traceback
// CHECK: mesh_errors.mlir:{{[0-9]+}}:8: error: 'stablehlo.add' mixes values of different meshes (@a and @b); partitioning such ops is not supported yet
// CHECK-NOT: Traceback

sdy.mesh @a = <["x"=2, "y"=4]>
sdy.mesh @b = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func public @main(%p: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}, {}]>},
                       %q: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@b, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  // expected-error@+1 {{'stablehlo.add' mixes values of different meshes (@a and @b); partitioning such ops is not supported yet}}
  %0 = stablehlo.add %p, %q : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @a = <["x"=2, "y"=4]>
sdy.mesh @c = <["p"=2, "q"=4]>
func.func public @main(%p: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-error@+1 {{'stablehlo.sort' mixes values of different meshes (@a and @c)}}
  %0:2 = "stablehlo.sort"(%p, %p) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>, %w: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@a, [{"x"}, {}]>, <@c, [{"p"}, {}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
