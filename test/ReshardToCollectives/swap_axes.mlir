// Two axes of different sizes swapped between dims ([{"x"}, {"y"}] to [{"y"}, {"x"}]
// on x=2, y=4): the minor half of "y" moves to dim 0 by all_to_all, which leaves 4 x 2
// shards like the target's, and one collective_permute puts each shard on the device
// the target wants it on. 1.5 local buffers per device, where gathering both axes
// and slicing moves 7 (the plan before issue 14; XLA's own reshard is this one).
// Then the same inside a program: an add of two values laid out the two ways.
// Ranked by bytes (%bytes_only): with the shipped cpu profile an array this small is
// gathered instead (one all_gather is faster than an all_to_all and a collective_permute;
// test_reshard_planner.py: test_a_swap_is_ranked_by_time_gathered_small_regrouped_large).
// RUN: %bytes_only shardpy-opt %s --shardpy-reshard-to-collectives | FileCheck %s
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=LOCAL
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = sdy.all_to_all [{"y":(2)2}: 1->0] %arg0 out_sharding=<@mesh_x2_y4, [{"x", "y":(2)2}, {"y":(1)2}]>
// CHECK-NEXT:    %[[P:.*]] = sdy.collective_permute %[[A]] out_sharding=<@mesh_x2_y4, [{"y"}, {"x"}]>
// CHECK-NOT:     sdy.all_gather
// LOCAL-LABEL: func.func public @main(
// LOCAL-NOT:     stablehlo.all_gather
// LOCAL:         stablehlo.all_to_all
// LOCAL-SAME:      (tensor<4x4xf32>) -> tensor<2x8xf32>
// LOCAL-NEXT:    stablehlo.collective_permute
// LOCAL-NOT:     stablehlo.all_gather
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {"x"}]>}) {
  %0 = sdy.reshard %a <@mesh_x2_y4, [{"y"}, {"x"}]> : tensor<8x16xf32>
  %1 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {"x"}]>]>} : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
