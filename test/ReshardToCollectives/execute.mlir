// Every kind of collective the planner emits, in one runnable program: the partial
// sums come from dots with a sharded contraction (kept unreduced={"y"}), and each
// sdy.reshard below is pinned to its collective, then the whole program runs on 8
// devices against the unpartitioned one.
// RUN: shardpy-opt %s --shardpy-reshard-to-collectives | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:  %[[Y:.*]] = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]>
// CHECK-NEXT:  sdy.all_gather [{}, {"y"}] %[[Y]] out_sharding=<@mesh_x2_y4, [{"x"}, {}]>
// CHECK-NEXT:  sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]>
// CHECK-NEXT:  sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh_x2_y4, [{}, {"x"}]>
// CHECK-NEXT:  sdy.collective_permute %arg1 out_sharding=<@mesh_x2_y4, [{"y", "x"}, {}]>
// CHECK-NEXT:  sdy.all_gather [{"y":(2)2}, {}] %arg1 out_sharding=<@mesh_x2_y4, [{"x", "y":(1)2}, {}]>
// CHECK-NEXT:  %[[LHS:.*]] = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]>
// CHECK-NEXT:  %[[P:.*]] = stablehlo.dot_general %[[LHS]], %arg2
// CHECK-NEXT:  sdy.all_reduce {"y"} %[[P]] out_sharding=<@mesh_x2_y4, [{"x"}, {}]>
// CHECK-NEXT:  sdy.reduce_scatter [{}, {"y"}] %[[P]] out_sharding=<@mesh_x2_y4, [{"x"}, {"y"}]>
// CHECK-NEXT:  return
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", "x"}, {}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y":(1)2}, {}]>},
        tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
        tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %y = sdy.reshard %a <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %0 = sdy.reshard %y <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  %1 = sdy.reshard %a <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %2 = sdy.reshard %a <@mesh_x2_y4, [{}, {"x"}]> : tensor<8x16xf32>
  %3 = sdy.reshard %b <@mesh_x2_y4, [{"y", "x"}, {}]> : tensor<8x16xf32>
  %4 = sdy.reshard %b <@mesh_x2_y4, [{"x", "y":(1)2}, {}]> : tensor<8x16xf32>
  %lhs = sdy.reshard %a <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %p = stablehlo.dot_general %lhs, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %5 = sdy.reshard %p <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x32xf32>
  %6 = sdy.reshard %p <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x32xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}
