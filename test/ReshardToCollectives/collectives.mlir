// Each sdy.reshard becomes the collectives that take its operand's sharding to its
// own, one idea per chunk, on a ["x"=2, "y"=4] mesh. The operand sharding is the
// function argument's.
// RUN: shardpy-opt %s --split-input-file --shardpy-reshard-to-collectives | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Axes dropped from the minor end of a dim: all_gather.
// CHECK-LABEL: func.func @all_gather(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @all_gather(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Axes added to a replicated dim: all_slice (local, no communication).
// CHECK-LABEL: func.func @all_slice(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_slice [{"x"}, {"y"}] %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @all_slice(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// An axis moved from one dim to another: all_to_all.
// CHECK-LABEL: func.func @all_to_all(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh_x2_y4, [{}, {"x"}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @all_to_all(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{}, {"x"}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Same shard shape, different device order ("x","y" -> "y","x"): one
// collective_permute of whole shards (cheaper than gathering and slicing).
// CHECK-LABEL: func.func @collective_permute(
// CHECK-NEXT:    %[[R:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh_x2_y4, [{"y", "x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @collective_permute(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"y", "x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Partial sums the target does not keep, dims unchanged: all_reduce.
// CHECK-LABEL: func.func @all_reduce(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @all_reduce(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Partial sums reduced and split along a dim on the same axis: one reduce_scatter
// (half the bytes of all_reduce + all_slice).
// CHECK-LABEL: func.func @reduce_scatter(
// CHECK-NEXT:    %[[R:.*]] = sdy.reduce_scatter [{"y"}, {}] %arg0 out_sharding=<@mesh_x2_y4, [{"y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reduce_scatter(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}], unreduced={"y"}>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"y"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Reduce over "y" on the sharded buffer first, then gather "x".
// CHECK-LABEL: func.func @all_reduce_then_all_gather(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[G:.*]] = sdy.all_gather [{"x"}, {}] %[[R]] out_sharding=<@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[G]]
func.func @all_reduce_then_all_gather(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Dim 0 changes from "x" to "y" (shards of different sizes, so no permute): gather
// "x", then slice "y".
// CHECK-LABEL: func.func @swap_axis(
// CHECK-NEXT:    %[[G:.*]] = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[S:.*]] = sdy.all_slice [{"y"}, {}] %[[G]] out_sharding=<@mesh_x2_y4, [{"y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[S]]
func.func @swap_axis(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"y"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Sub-axes: "y" is "y":(1)2 (major) then "y":(2)2 (minor). Keeping only the major
// half gathers the minor sub-axis.
// CHECK-LABEL: func.func @sub_axis_gather(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_gather [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh_x2_y4, [{"y":(1)2}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @sub_axis_gather(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"y":(1)2}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Sub-axes: the minor half of "y" moves to dim 1: all_to_all of "y":(2)2.
// CHECK-LABEL: func.func @sub_axis_all_to_all(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_to_all [{"y":(2)2}: 0->1] %arg0 out_sharding=<@mesh_x2_y4, [{"y":(1)2}, {"y":(2)2}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @sub_axis_all_to_all(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"y":(1)2}, {"y":(2)2}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// Sub-axes: completing "y":(1)2 to the full "y" slices the minor sub-axis, and the
// result's sharding names the merged axis.
// CHECK-LABEL: func.func @sub_axis_slice(
// CHECK-NEXT:    %[[R:.*]] = sdy.all_slice [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh_x2_y4, [{"y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @sub_axis_slice(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y":(1)2}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"y"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// A reshard to the sharding its operand already has (or replicated to replicated, the
// operand being unannotated) needs nothing: it disappears.
// CHECK-LABEL: func.func @no_op(
// CHECK-NEXT:    return %arg0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NOT:   sdy.
func.func @no_op(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                 %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  %1 = sdy.reshard %arg1 <@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
