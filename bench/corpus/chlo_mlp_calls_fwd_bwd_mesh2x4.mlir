module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<32x64xf32>, %arg2: tensor<64x32xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32x64xf32> {jax.result_info = "result[1][0]"}, tensor<64x32xf32> {jax.result_info = "result[1][1]", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"data"}, {"model"}]> : tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %3 = stablehlo.compare GT, %1, %2, FLOAT : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %cst_0 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %5 = stablehlo.multiply %4, %1 : tensor<16x64xf32>
    %6 = call @_where(%3, %1, %5) : (tensor<16x64xi1>, tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %7:4 = call @softmax_block(%6) : (tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>)
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %9 = stablehlo.multiply %8, %7#0 : tensor<16x64xf32>
    %10 = stablehlo.negate %7#0 : tensor<16x64xf32>
    %cst_2 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<16x64xf32>
    %13 = chlo.erfc %12 : tensor<16x64xf32> -> tensor<16x64xf32>
    %14 = chlo.square %12 : tensor<16x64xf32> -> tensor<16x64xf32>
    %15 = stablehlo.negate %14 : tensor<16x64xf32>
    %16 = stablehlo.exponential %15 : tensor<16x64xf32>
    %17 = stablehlo.multiply %9, %13 : tensor<16x64xf32>
    %18 = chlo.sinh %17 : tensor<16x64xf32> -> tensor<16x64xf32>
    %19 = chlo.cosh %17 : tensor<16x64xf32> -> tensor<16x64xf32>
    %20 = chlo.atan %17 : tensor<16x64xf32> -> tensor<16x64xf32>
    %21 = chlo.square %17 : tensor<16x64xf32> -> tensor<16x64xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %23 = stablehlo.add %22, %21 : tensor<16x64xf32>
    %24 = stablehlo.multiply %18, %20 : tensor<16x64xf32>
    %25 = stablehlo.add %17, %24 : tensor<16x64xf32>
    %26:4 = call @softmax_block(%25) : (tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>)
    %27 = stablehlo.dot_general %26#0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %28 = stablehlo.multiply %27, %27 : tensor<16x32xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %30 = stablehlo.multiply %29, %27 : tensor<16x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%28 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %32 = stablehlo.divide %31, %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_8 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %33 = stablehlo.divide %cst_7, %cst_8 : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %35 = stablehlo.multiply %34, %30 : tensor<16x32xf32>
    %36 = stablehlo.dot_general %35, %26#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %38 = stablehlo.dot_general %35, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %39 = call @softmax_block_0(%26#1, %26#2, %26#3, %38) : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %40 = stablehlo.multiply %18, %39 : tensor<16x64xf32>
    %41 = stablehlo.multiply %39, %20 : tensor<16x64xf32>
    %42 = stablehlo.divide %40, %23 : tensor<16x64xf32>
    %43 = stablehlo.add %39, %42 : tensor<16x64xf32>
    %44 = stablehlo.multiply %41, %19 : tensor<16x64xf32>
    %45 = stablehlo.add %43, %44 : tensor<16x64xf32>
    %46 = stablehlo.multiply %9, %45 : tensor<16x64xf32>
    %47 = stablehlo.multiply %45, %13 : tensor<16x64xf32>
    %cst_9 = stablehlo.constant dense<-1.12837923> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %49 = stablehlo.multiply %48, %46 : tensor<16x64xf32>
    %50 = stablehlo.multiply %49, %16 : tensor<16x64xf32>
    %cst_10 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %52 = stablehlo.multiply %50, %51 : tensor<16x64xf32>
    %53 = stablehlo.negate %52 : tensor<16x64xf32>
    %cst_11 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %55 = stablehlo.multiply %54, %47 : tensor<16x64xf32>
    %56 = stablehlo.add %53, %55 : tensor<16x64xf32>
    %57 = call @softmax_block_0(%7#1, %7#2, %7#3, %56) : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %58:2 = call @_where_1(%3, %57) : (tensor<16x64xi1>, tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>)
    %cst_12 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %60 = stablehlo.multiply %59, %58#1 : tensor<16x64xf32>
    %61 = stablehlo.add %58#0, %60 : tensor<16x64xf32>
    %62 = sdy.sharding_constraint %61 <@mesh, [{"data"}, {"model"}]> : tensor<16x64xf32>
    %63 = stablehlo.dot_general %62, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %64 = stablehlo.transpose %63, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    return %32, %64, %37 : tensor<f32>, tensor<32x64xf32>, tensor<64x32xf32>
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
