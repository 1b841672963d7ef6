// jax.export with shape polymorphism writes dynamic dims; shardpy partitions static
// shapes only: the partition passes refuse them with one located error (they failed as
// an internal error of shardpy-to-local). Propagation leaves dynamic values alone, as
// Shardy's does (its basic_propagation.mlir's dynamic_shaped_func_output_skipped):
// shardpy-propagate alone runs, and shardpy-choose-shardings, the first partition pass
// of shardpy-partition, and shardpy-insert-reshards each report the error.
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s --check-prefix=PROPAGATED
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-partition
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-propagate --shardpy-insert-reshards
// RUN: not shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s --check-prefix=NOTB
// PROPAGATED: stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>}
// NOTB-NOT: Traceback
sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// expected-error@+1 {{@dynamic's argument 0 has a dynamic shape (tensor<?x16xf32>): shardpy partitions static shapes only (export without shape polymorphism)}}
func.func @dynamic(%a: tensor<?x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> (tensor<?x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.tanh %a : tensor<?x16xf32>
  %1 = stablehlo.add %arg1, %arg1 : tensor<8x16xf32>
  return %0, %1 : tensor<?x16xf32>, tensor<8x16xf32>
}
