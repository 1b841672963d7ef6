// Fuzz seed 1108564 (second_mesh): @mesh2 is an alias of @mesh (same axes and devices).
// A plan between them emitted sdy.collective_permute with a result on the other symbol,
// which sdy rejects ("result mesh name is different but same device ids"); steps now
// keep their operand's symbol. Executed: no partition error, outputs match.
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK-NOT: {{: error:}}
// CHECK: check: PASS
module @fuzz attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @mesh2 = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<20xf32>, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg2: tensor<19xf32>, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg4: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg5: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{"y"}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{}]>}) {
    %v1 = stablehlo.iota dim = 0 : tensor<8xi32>
    %v2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %v3 = stablehlo.constant dense<0> : tensor<i32>
    %v17:2 = "stablehlo.reduce"(%arg1, %v1, %v2, %v3) <{dimensions = array<i64: 0>}> ({
      ^bb0(%v4: tensor<f32>, %v5: tensor<i32>, %v6: tensor<f32>, %v7: tensor<i32>):
        %v8 = stablehlo.compare GT, %v4, %v6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %v9 = stablehlo.compare NE, %v4, %v4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %v10 = stablehlo.or %v8, %v9 : tensor<i1>
        %v11 = stablehlo.compare EQ, %v4, %v6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %v12 = stablehlo.compare LT, %v5, %v7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %v13 = stablehlo.and %v11, %v12 : tensor<i1>
        %v14 = stablehlo.or %v10, %v13 : tensor<i1>
        %v15 = stablehlo.select %v10, %v4, %v6 : tensor<i1>, tensor<f32>
        %v16 = stablehlo.select %v14, %v5, %v7 : tensor<i1>, tensor<i32>
        stablehlo.return %v15, %v16 : tensor<f32>, tensor<i32>
    }) : (tensor<8xf32>, tensor<8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
    %v18 = sdy.sharding_constraint %v17#0 <@mesh, []> : tensor<f32>
    %v19 = sdy.sharding_constraint %v17#1 <@mesh, []> : tensor<i32>
    %v20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %v24 = "stablehlo.select_and_scatter"(%arg0, %arg2, %v20) <{padding = dense<0> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
      ^bb0(%v21: tensor<f32>, %v22: tensor<f32>):
        %v23 = stablehlo.compare GE, %v21, %v22, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %v23 : tensor<i1>
    }, {
      ^bb0(%v25: tensor<f32>, %v26: tensor<f32>):
        %v27 = stablehlo.add %v25, %v26 : tensor<f32>
        stablehlo.return %v27 : tensor<f32>
    }) : (tensor<20xf32>, tensor<19xf32>, tensor<f32>) -> tensor<20xf32>
    %v28 = stablehlo.concatenate %v24, %arg4, %arg3, dim = 0 : (tensor<20xf32>, tensor<16xf32>, tensor<8xf32>) -> tensor<44xf32>
    %v29 = stablehlo.iota dim = 1 : tensor<4x8xf32>
    %v30 = sdy.sharding_constraint %v29 <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
    %v31 = stablehlo.dot_general %arg3, %v30, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
    %v32 = stablehlo.multiply %v19, %v19 : tensor<i32>
    %v33 = sdy.sharding_constraint %v32 <@mesh, []> : tensor<i32>
    %v34 = stablehlo.reverse %arg3, dims = [0] : tensor<8xf32>
    %v35 = stablehlo.broadcast_in_dim %v18, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %v36_m2:3 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh2, [{}]>, <@mesh2, [{"x"}]>, <@mesh2, [{}]>]>} %v28, %v35, %v34 : tensor<44xf32>, tensor<8xf32>, tensor<8xf32>
    %v36:3 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{?}]>, <@mesh, [{?}]>]>} %v36_m2#0, %v36_m2#1, %v36_m2#2 : tensor<44xf32>, tensor<8xf32>, tensor<8xf32>
    %v37 = stablehlo.reverse %v36#2, dims = [0] : tensor<8xf32>
    %v38 = stablehlo.negate %v36#2 : tensor<8xf32>
    %v39 = stablehlo.reshape %arg5 : (tensor<4xi32>) -> tensor<4x1xi32>
    %v40 = "stablehlo.scatter"(%v31, %v39, %v31) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
      ^bb0(%v41: tensor<f32>, %v42: tensor<f32>):
        %v43 = stablehlo.add %v41, %v42 : tensor<f32>
        stablehlo.return %v43 : tensor<f32>
    }) : (tensor<4xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<4xf32>
    %v44 = sdy.sharding_constraint %v40 <@mesh, [{}]> : tensor<4xf32>
    return %v36#1, %v37, %v38, %v44 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>
  }
}
