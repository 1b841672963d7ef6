// A scatter-add into an operand sharded on the scattered dim, with replicated indices
// and updates: nothing is moved; each device applies the updates that land in its rows
// (indices shifted and the others masked, test/ToLocal/scatter.mlir), so the result
// keeps the operand's [{"x"}, {}].
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK:         %[[S:.*]] = "stablehlo.scatter"(%arg0, %{{.*}}, %arg1)
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    return %[[S]]
// CHECK-NOT:     sdy.reshard
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
