// stablehlo.dot and dot_general (batching dims) with a sharded contracting dim: each
// device multiplies its local blocks (the rhs' block cut by the all_slice's
// partition_id-indexed dynamic_slice) and the partial sums are finished by a sum
// stablehlo.all_reduce over "y" ([[0, 1], [2, 3]]).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[W:.*]] = stablehlo.dynamic_slice %arg1, %{{.*}}, %{{.*}}, sizes = [4, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot %arg0, %[[W]] : (tensor<2x4xf32>, tensor<4x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %[[DR:.*]] = "stablehlo.all_reduce"(%[[D]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK:           stablehlo.add
// CHECK:         %[[Q:.*]] = stablehlo.dynamic_slice %arg3, %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 4, 6]
// CHECK-NEXT:    %[[G:.*]] = stablehlo.dot_general %arg2, %[[Q]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<1x4x4xf32>, tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
// CHECK-NEXT:    %[[GR:.*]] = "stablehlo.all_reduce"(%[[G]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK:           stablehlo.add
// CHECK:         return %[[DR]], %[[GR]] : tensor<2x6xf32>, tensor<1x4x6xf32>
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}, %arg3: tensor<2x8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}]>}) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<2x4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = sdy.all_slice [{"y"}, {}] %arg1 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x6xf32>
  %1 = stablehlo.dot %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x6xf32>
  %3 = sdy.all_slice [{"x"}, {}, {}] %arg3 out_sharding=<@mesh, [{"x"}, {"y"}, {}]> : tensor<2x8x6xf32>
  %4 = stablehlo.dot_general %arg2, %3, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}], unreduced={"y"}>]>} : (tensor<2x4x8xf32>, tensor<2x8x6xf32>) -> tensor<2x4x6xf32>
  %5 = sdy.all_reduce {"y"} %4 out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<2x4x6xf32>
  return %2, %5 : tensor<4x6xf32>, tensor<2x4x6xf32>
}
