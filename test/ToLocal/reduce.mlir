// A reduce over a sharded dim is computed on the local block: a sum's partial result is
// finished by the sdy.all_reduce insert-reshards placed (a sum all_reduce); a max
// (marked replicated, not unreduced) is finished by shardpy-to-local itself with an
// all_reduce whose reducer is maximum, over the same "y" groups (on the floats' bits
// as i32 in IEEE total order: test/ToLocal/reduce_max.mlir).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[S:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[SR:.*]] = "stablehlo.all_reduce"(%[[S]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK:           stablehlo.add
// CHECK:         %[[M:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:    stablehlo.bitcast_convert %[[M]] : (tensor<2xf32>) -> tensor<2xi32>
// CHECK:         %[[MR:.*]] = "stablehlo.all_reduce"(%{{.*}}) <{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK-NEXT:    ^bb0(%[[L:.*]]: tensor<i32>, %[[R:.*]]: tensor<i32>):
// CHECK-NEXT:      stablehlo.maximum %[[L]], %[[R]] : tensor<i32>
// CHECK:         %[[MF:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<2xi32>) -> tensor<2xf32>
// CHECK:         return %[[SR]], %[[MF]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced={"y"}>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}]> : tensor<4xf32>
  %2 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}
