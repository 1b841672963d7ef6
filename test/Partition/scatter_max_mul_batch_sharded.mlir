// Scatters with self-combining bodies, updates split on their batch dim over "x":
//   max: idempotent, so each device scatters its updates into the whole operand and
//        an all_reduce(max) over "x" combines them (on the bits as i32 in IEEE total
//        order, NaN on top: test/ToLocal/reduce_max.mlir);
//   multiply: the operand would be counted twice, so it stays on the first device
//        along "x" and the others start from ones; then an all_reduce(multiply).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[MAX:.*]] = "stablehlo.scatter"(%arg0,
// CHECK:         stablehlo.maximum
// CHECK:         stablehlo.bitcast_convert %[[MAX]] : (tensor<8x4xf32>) -> tensor<8x4xi32>
// CHECK:         "stablehlo.all_reduce"(%{{.*}}) <{{.*}}replica_groups = dense<{{\[\[}}0, 1]]>
// CHECK:           stablehlo.maximum %{{.*}}, %{{.*}} : tensor<i32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[ONES:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK:         %[[ONCE:.*]] = stablehlo.select %{{.*}}, %arg0, %[[ONES]]
// CHECK:         %[[MUL:.*]] = "stablehlo.scatter"(%[[ONCE]],
// CHECK:         "stablehlo.all_reduce"(%[[MUL]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 1]]>
// CHECK:           stablehlo.multiply
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%t: tensor<8x4xf32>,
                       %ids: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %rows: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c3 = stablehlo.constant dense<3> : tensor<6xi32>
  %c2 = stablehlo.constant dense<2> : tensor<6xi32>
  %m = stablehlo.multiply %ids, %c3 : tensor<6xi32>
  %s = stablehlo.add %m, %c2 : tensor<6xi32>
  %i = stablehlo.reshape %s : (tensor<6xi32>) -> tensor<6x1xi32>
  %0 = "stablehlo.scatter"(%t, %i, %rows) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = "stablehlo.scatter"(%t, %i, %rows) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.multiply %b, %a : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}
