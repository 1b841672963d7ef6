module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["model"=8]> {stablehlo.mesh = {axes = [{name = "model", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<64x32xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32x64xf32> {jax.result_info = "result[1][0]"}, tensor<64x32xf32> {jax.result_info = "result[1][1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %2 = stablehlo.compare GT, %0, %1, FLOAT : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %cst_0 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %4 = stablehlo.multiply %3, %0 : tensor<16x64xf32>
    %5 = call @_where(%2, %0, %4) : (tensor<16x64xi1>, tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %6:4 = call @softmax_block(%5) : (tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>)
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %8 = stablehlo.multiply %7, %6#0 : tensor<16x64xf32>
    %9 = stablehlo.negate %6#0 : tensor<16x64xf32>
    %cst_2 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %11 = stablehlo.multiply %9, %10 : tensor<16x64xf32>
    %12 = chlo.erfc %11 : tensor<16x64xf32> -> tensor<16x64xf32>
    %13 = chlo.square %11 : tensor<16x64xf32> -> tensor<16x64xf32>
    %14 = stablehlo.negate %13 : tensor<16x64xf32>
    %15 = stablehlo.exponential %14 : tensor<16x64xf32>
    %16 = stablehlo.multiply %8, %12 : tensor<16x64xf32>
    %17 = chlo.sinh %16 : tensor<16x64xf32> -> tensor<16x64xf32>
    %18 = chlo.cosh %16 : tensor<16x64xf32> -> tensor<16x64xf32>
    %19 = chlo.atan %16 : tensor<16x64xf32> -> tensor<16x64xf32>
    %20 = chlo.square %16 : tensor<16x64xf32> -> tensor<16x64xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %22 = stablehlo.add %21, %20 : tensor<16x64xf32>
    %23 = stablehlo.multiply %17, %19 : tensor<16x64xf32>
    %24 = stablehlo.add %16, %23 : tensor<16x64xf32>
    %25:4 = call @softmax_block(%24) : (tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>)
    %26 = stablehlo.dot_general %25#0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %27 = stablehlo.multiply %26, %26 : tensor<16x32xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %29 = stablehlo.multiply %28, %26 : tensor<16x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.reduce(%27 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %31 = stablehlo.divide %30, %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_8 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %32 = stablehlo.divide %cst_7, %cst_8 : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %34 = stablehlo.multiply %33, %29 : tensor<16x32xf32>
    %35 = stablehlo.dot_general %34, %25#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %37 = stablehlo.dot_general %34, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %38 = call @softmax_block_0(%25#1, %25#2, %25#3, %37) : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %39 = stablehlo.multiply %17, %38 : tensor<16x64xf32>
    %40 = stablehlo.multiply %38, %19 : tensor<16x64xf32>
    %41 = stablehlo.divide %39, %22 : tensor<16x64xf32>
    %42 = stablehlo.add %38, %41 : tensor<16x64xf32>
    %43 = stablehlo.multiply %40, %18 : tensor<16x64xf32>
    %44 = stablehlo.add %42, %43 : tensor<16x64xf32>
    %45 = stablehlo.multiply %8, %44 : tensor<16x64xf32>
    %46 = stablehlo.multiply %44, %12 : tensor<16x64xf32>
    %cst_9 = stablehlo.constant dense<-1.12837923> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %48 = stablehlo.multiply %47, %45 : tensor<16x64xf32>
    %49 = stablehlo.multiply %48, %15 : tensor<16x64xf32>
    %cst_10 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %51 = stablehlo.multiply %49, %50 : tensor<16x64xf32>
    %52 = stablehlo.negate %51 : tensor<16x64xf32>
    %cst_11 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %54 = stablehlo.multiply %53, %46 : tensor<16x64xf32>
    %55 = stablehlo.add %52, %54 : tensor<16x64xf32>
    %56 = call @softmax_block_0(%6#1, %6#2, %6#3, %55) : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %57:2 = call @_where_1(%2, %56) : (tensor<16x64xi1>, tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>)
    %cst_12 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %59 = stablehlo.multiply %58, %57#1 : tensor<16x64xf32>
    %60 = stablehlo.add %57#0, %59 : tensor<16x64xf32>
    %61 = stablehlo.dot_general %60, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %62 = stablehlo.transpose %61, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    return %31, %62, %36 : tensor<f32>, tensor<32x64xf32>, tensor<64x32xf32>
  }
  func.func private @_where(%arg0: tensor<16x64xi1>, %arg1: tensor<16x64xf32>, %arg2: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<16x64xi1>, tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
  func.func private @softmax_block(%arg0: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x64xf32>
    %6 = stablehlo.exponential %5 : tensor<16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %10 = stablehlo.divide %6, %9 : tensor<16x64xf32>
    %11 = stablehlo.multiply %8, %8 : tensor<16x1xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %13 = stablehlo.divide %12, %11 : tensor<16x1xf32>
    return %10, %6, %8, %13 : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>
  }
  func.func private @softmax_block_0(%arg0: tensor<16x64xf32>, %arg1: tensor<16x1xf32>, %arg2: tensor<16x1xf32>, %arg3: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.multiply %arg3, %0 : tensor<16x64xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %4 = stablehlo.reshape %3 : (tensor<16xf32>) -> tensor<16x1xf32>
    %5 = stablehlo.negate %4 : tensor<16x1xf32>
    %6 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %7 = stablehlo.divide %arg3, %6 : tensor<16x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %10 = stablehlo.add %7, %9 : tensor<16x64xf32>
    %11 = stablehlo.multiply %10, %arg0 : tensor<16x64xf32>
    return %11 : tensor<16x64xf32>
  }
  func.func private @_where_1(%arg0: tensor<16x64xi1>, %arg1: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.select %arg0, %0, %arg1 : tensor<16x64xi1>, tensor<16x64xf32>
    %2 = stablehlo.select %arg0, %arg1, %0 : tensor<16x64xi1>, tensor<16x64xf32>
    return %2, %1 : tensor<16x64xf32>, tensor<16x64xf32>
  }
}
