// A sort needs its sorted dim whole: the 2-D operand's "y" moves from the sorted dim 1
// onto dim 0 after "x" (an all_to_all later), it sorts whole rows and moves back; the
// 1-D operand has no other dim, so it is gathered, sorted on every device, and
// resharded back to "y".
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"x", "y"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.sort"(%[[A]]) <{dimension = 1 : i64, is_stable = true}>
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>}
// CHECK-NEXT:    %[[SB:.*]] = sdy.reshard %[[S]] <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = sdy.reshard %arg1 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT:    %[[S1:.*]] = "stablehlo.sort"(%[[B]]) <{dimension = 0 : i64, is_stable = true}>
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT:    %[[S1B:.*]] = sdy.reshard %[[S1]] <@mesh, [{"y"}]> : tensor<8xf32>
// CHECK-NEXT:    return %[[SB]], %[[S1B]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %2 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.sort"(%arg1) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %2 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8xf32>
}
