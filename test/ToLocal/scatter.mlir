// A scatter-add into an operand sharded on the scattered dim: each device clamps the
// global indices to [-1, 8] (out of range stays out of range) and shifts them by its
// shard's first row (2x), so updates for other shards fall outside its 2 local rows and
// are dropped by the local scatter (now neither sorted nor unique); no collective.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.all_
// CHECK:         stablehlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK:         %[[LO:.*]] = stablehlo.constant dense<-1> : tensor<i32>
// CHECK-NEXT:    %[[HI:.*]] = stablehlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:    %[[CL:.*]] = stablehlo.clamp %[[LO]], %{{.*}}, %[[HI]] : (tensor<i32>, tensor<3x1xi32>, tensor<i32>) -> tensor<3x1xi32>
// CHECK:         %[[IDX:.*]] = stablehlo.subtract %[[CL]], %{{.*}} : tensor<3x1xi32>
// CHECK:         %[[S:.*]] = "stablehlo.scatter"(%{{.*}}, %[[IDX]], %arg1) <{indices_are_sorted = false, {{.*}}unique_indices = false}>
// CHECK:         }) : (tensor<2x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[S]] : tensor<2x4xf32>
// CHECK-NOT:     "stablehlo.all_
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x4xf32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.iota dim = 0 : tensor<3xi32>
  %c = stablehlo.constant dense<3> : tensor<3xi32>
  %1 = stablehlo.multiply %0, %c : tensor<3xi32>
  %2 = stablehlo.reshape %1 : (tensor<3xi32>) -> tensor<3x1xi32>
  %3 = "stablehlo.scatter"(%arg0, %2, %arg1) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %4 = stablehlo.add %arg2, %arg3 : tensor<f32>
    stablehlo.return %4 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}
