// Four partial sums finished by reduce_scatters over the same devices (the end of an
// FSDP backward pass: one per gradient). Three are independent: they become one
// reduce_scatter of their operands packed as [4, rest] (scattered dim first: a
// transpose for the two scattered along dim 1), one latency instead of three. The
// fourth reads the first one's result, so it stays on its own. The multiply that
// reads the first result before the third reduce_scatter moves after the combined one.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=COUNT
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["d"=4]>

// CHECK-LABEL: func.func @main(
// CHECK-DAG:     %[[A:.*]] = stablehlo.dot_general %arg2, %arg0
// CHECK-DAG:     %[[C:.*]] = stablehlo.dot_general %{{.*}}, %arg1, contracting_dims = [1] x [1]
// CHECK-DAG:     %[[E:.*]] = stablehlo.dot_general %{{.*}}, %arg0
// CHECK:         %[[PA:.*]] = stablehlo.reshape %[[A]] : (tensor<8x8xf32>) -> tensor<4x16xf32>
// CHECK:         %[[TC:.*]] = stablehlo.transpose %[[C]], dims = [1, 0]
// CHECK:         %[[PC:.*]] = stablehlo.reshape %[[TC]] : (tensor<8x8xf32>) -> tensor<4x16xf32>
// CHECK:         %[[TE:.*]] = stablehlo.transpose %[[E]], dims = [1, 0]
// CHECK:         %[[PE:.*]] = stablehlo.reshape %[[TE]] : (tensor<8x8xf32>) -> tensor<4x16xf32>
// CHECK:         %[[CAT:.*]] = stablehlo.concatenate %[[PA]], %[[PC]], %[[PE]], dim = 1 : {{.*}} -> tensor<4x48xf32>
// CHECK:         %[[RS:.*]] = "stablehlo.reduce_scatter"(%[[CAT]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]>{{.*}}scatter_dimension = 0
// CHECK:         }) : (tensor<4x48xf32>) -> tensor<1x48xf32>
// CHECK:         %[[SA:.*]] = stablehlo.slice %[[RS]] [0:1, 0:16]
// CHECK:         %[[RA:.*]] = stablehlo.reshape %[[SA]] : (tensor<1x16xf32>) -> tensor<2x8xf32>
// CHECK:         stablehlo.slice %[[RS]] [0:1, 16:32]
// CHECK:         stablehlo.slice %[[RS]] [0:1, 32:48]
// CHECK:         %[[SQ:.*]] = stablehlo.multiply %[[RA]], %[[RA]]
// CHECK:         stablehlo.dot_general %[[SQ]]
// CHECK:         "stablehlo.reduce_scatter"
// COUNT-COUNT-2: "stablehlo.reduce_scatter"
// COUNT-NOT:     "stablehlo.reduce_scatter"
func.func @main(%x: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %y: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"d"}]>},
                %w: tensor<8x64xf32>, %v: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"d"}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"d"}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) {
  %a = stablehlo.dot_general %w, %x, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
  %ar = sdy.reduce_scatter [{"d"}, {}] %a out_sharding=<@mesh, [{"d"}, {}]> : tensor<8x8xf32>
  %b = stablehlo.dot_general %v, %y, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"d"}]>]>} : (tensor<8x8xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %sq = stablehlo.multiply %ar, %ar {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : tensor<8x8xf32>
  %c = stablehlo.dot_general %b, %y, contracting_dims = [1] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x8xf32>
  %cr = sdy.reduce_scatter [{}, {"d"}] %c out_sharding=<@mesh, [{}, {"d"}]> : tensor<8x8xf32>
  %d = stablehlo.dot_general %v, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %e = stablehlo.dot_general %d, %x, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
  %er = sdy.reduce_scatter [{}, {"d"}] %e out_sharding=<@mesh, [{}, {"d"}]> : tensor<8x8xf32>
  %h = stablehlo.dot_general %sq, %v, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %hr = sdy.reduce_scatter [{"d"}, {}] %h out_sharding=<@mesh, [{"d"}, {}]> : tensor<8x8xf32>
  return %sq, %cr, %er, %hr : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
