// A dot whose contraction is sharded on "y" while its result wants rows on "y": of
// the two placements insert-reshards weighs, computing the local partial product
// (both operands as they are) and finishing it with one reduce_scatter onto the rows
// (128 B per device) beats moving both operands (an all_to_all and an all_gather,
// 384 B). Native Shardy all-reduces then slices: 256 B.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[P:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    "stablehlo.reduce_scatter"(%[[P]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]>{{.*}}scatter_dimension = 0
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute)}}"
func.func public @main(%b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2, [{}, {"y"}]>},
                       %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2, [{"y"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y2, [{"y"}, {}]>}) {
  %0 = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
