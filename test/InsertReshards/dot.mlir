// stablehlo.dot and dot_general with batching dims: the lhs' contracting dim is on "y",
// so the rhs' contracting dim is moved onto "y" too (the batch dim of the dot_general
// takes "x" with the lhs') and the result is a partial sum (unreduced={"y"}) finished
// by one sdy.all_reduce; the lhs is never gathered.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[W:.*]] = sdy.reshard %arg1 <@mesh, [{"y"}, {}]> : tensor<8x6xf32>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot %arg0, %[[W]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[DR:.*]] = sdy.all_reduce {"y"} %[[D]] out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x6xf32>
// CHECK-NEXT:    %[[Q:.*]] = sdy.reshard %arg3 <@mesh, [{"x"}, {"y"}, {}]> : tensor<2x8x6xf32>
// CHECK-NEXT:    %[[G:.*]] = stablehlo.dot_general %arg2, %[[Q]], batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[GR:.*]] = sdy.all_reduce {"y"} %[[G]] out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<2x4x6xf32>
// CHECK-NEXT:    return %[[DR]], %[[GR]]
// CHECK-NOT:     sdy.reshard
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}, %arg3: tensor<2x8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}]>}) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<2x4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<2x4x8xf32>, tensor<2x8x6xf32>) -> tensor<2x4x6xf32>
  return %0, %1 : tensor<4x6xf32>, tensor<2x4x6xf32>
}
