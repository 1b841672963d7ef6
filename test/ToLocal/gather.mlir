// A gather from a table sharded on the indexed dim: each device clamps the GLOBAL index
// to [0, 7] (gather clamps), shifts it by its shard's first row (4y), gathers from its
// 4 local rows, masks to zero the rows other shards hold, and the partial rows are
// summed by the all_reduce over "y".
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.constant dense<[0, 4, 0, 4]> : tensor<4xi32>
// CHECK:         %[[LO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[HI:.*]] = stablehlo.constant dense<7> : tensor<i32>
// CHECK-NEXT:    %[[CL:.*]] = stablehlo.clamp %[[LO]], %{{.*}}, %[[HI]] : (tensor<i32>, tensor<2x3x1xi32>, tensor<i32>) -> tensor<2x3x1xi32>
// CHECK:         %[[IDX:.*]] = stablehlo.subtract %[[CL]], %{{.*}} : tensor<2x3x1xi32>
// CHECK:         %[[G:.*]] = "stablehlo.gather"(%arg0, %[[IDX]]) {{.*}} : (tensor<4x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
// CHECK:         %[[M:.*]] = stablehlo.select %{{.*}}, %[[G]], %{{.*}} : tensor<2x3x4xi1>, tensor<2x3x4xf32>
// CHECK-NEXT:    %[[R:.*]] = "stablehlo.all_reduce"(%[[M]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK:         return %[[R]] : tensor<2x3x4xf32>
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<3> : tensor<4x3xi32>
  %c_0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<-5> : tensor<4x3xi32>
  %0 = stablehlo.multiply %arg1, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x3xi32>
  %1 = stablehlo.add %0, %c_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x3xi32>
  %2 = stablehlo.reshape %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<4x3xi32>) -> tensor<4x3x1xi32>
  %3 = "stablehlo.gather"(%arg0, %2) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}], unreduced={"y"}>]>} : (tensor<8x4xf32>, tensor<4x3x1xi32>) -> tensor<4x3x4xf32>
  %4 = sdy.all_reduce {"y"} %3 out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<4x3x4xf32>
  return %4 : tensor<4x3x4xf32>
}
