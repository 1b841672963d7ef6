module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<256x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<32x32xf32>, %arg2: tensor<16x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<256x32xf32> {jax.result_info = "result[1][0]"}, tensor<32x32xf32> {jax.result_info = "result[1][1]", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) {
    %0:2 = call @_take(%arg0, %arg2) : (tensor<256x32xf32>, tensor<16x8xi32>) -> (tensor<16x8x32xf32>, tensor<16x8x1xi32>)
    %1 = sdy.sharding_constraint %0#0 <@mesh, [{"data"}, {}, {"model"}]> : tensor<16x8x32xf32>
    %2 = stablehlo.dot_general %1, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<32x32xf32>) -> tensor<16x8x32xf32>
    %3 = stablehlo.tanh %2 : tensor<16x8x32xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %5 = stablehlo.subtract %4, %3 : tensor<16x8x32xf32>
    %6 = stablehlo.multiply %3, %3 : tensor<16x8x32xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %8 = stablehlo.multiply %7, %3 : tensor<16x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %10 = stablehlo.divide %9, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %11 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %13 = stablehlo.multiply %12, %8 : tensor<16x8x32xf32>
    %14 = stablehlo.multiply %13, %5 : tensor<16x8x32xf32>
    %15 = stablehlo.multiply %14, %3 : tensor<16x8x32xf32>
    %16 = stablehlo.add %14, %15 : tensor<16x8x32xf32>
    %17 = stablehlo.dot_general %16, %1, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x8x32xf32>) -> tensor<32x32xf32>
    %18 = stablehlo.transpose %17, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %19 = stablehlo.dot_general %16, %arg1, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<32x32xf32>) -> tensor<16x8x32xf32>
    %20 = sdy.sharding_constraint %19 <@mesh, [{"data"}, {}, {"model"}]> : tensor<16x8x32xf32>
    %21 = call @_take_0(%0#1, %20) : (tensor<16x8x1xi32>, tensor<16x8x32xf32>) -> tensor<256x32xf32>
    return %10, %21, %18 : tensor<f32>, tensor<256x32xf32>, tensor<32x32xf32>
  }
  func.func private @_take(%arg0: tensor<256x32xf32>, %arg1: tensor<16x8xi32>) -> (tensor<16x8x32xf32>, tensor<16x8x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<16x8xi32>, tensor<16x8xi32>) -> tensor<16x8xi1>
    %c_0 = stablehlo.constant dense<256> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<16x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<16x8xi1>, tensor<16x8xi32>, tensor<16x8xi32>) -> tensor<16x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<16x8xi32>) -> tensor<16x8x1xi32>
    %c_1 = stablehlo.constant dense<255> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<16x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<16x8x1xi32>, tensor<16x8x1xi32>) -> tensor<16x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<16x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<16x8x1xi32>, tensor<16x8x1xi32>) -> tensor<16x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<16x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<16x8x1xi1>, tensor<i1>) -> tensor<16x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<256x32xf32>, tensor<16x8x1xi32>) -> tensor<16x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<16x8xi1>) -> tensor<16x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<16x8x32xi1>, tensor<16x8x32xf32>
    return %16, %5 : tensor<16x8x32xf32>, tensor<16x8x1xi32>
  }
  func.func private @_where(%arg0: tensor<16x8xi1>, %arg1: tensor<16x8xi32>, %arg2: tensor<16x8xi32>) -> tensor<16x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<16x8xi1>, tensor<16x8xi32>
    return %0 : tensor<16x8xi32>
  }
  func.func private @_take_0(%arg0: tensor<16x8x1xi32>, %arg1: tensor<16x8x32xf32>) -> tensor<256x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<256x32xf32>, tensor<16x8x1xi32>, tensor<16x8x32xf32>) -> tensor<256x32xf32>
    return %1 : tensor<256x32xf32>
  }
}
