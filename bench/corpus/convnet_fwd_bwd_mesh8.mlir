module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<256x10xf32>, %arg1: tensor<3x3x4x8xf32>, %arg2: tensor<3x3x8x16xf32>, %arg3: tensor<8x16x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}, %arg4: tensor<8x10xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<256x10xf32> {jax.result_info = "result[1]['dense']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<3x3x4x8xf32> {jax.result_info = "result[1]['k1']"}, tensor<3x3x8x16xf32> {jax.result_info = "result[1]['k2']"}) {
    %0 = stablehlo.convolution(%arg3, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x16x16x8xf32>
    %1 = call @relu(%0) : (tensor<8x16x16x8xf32>) -> tensor<8x16x16x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16x16x8xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<8x16x16x8xf32>, tensor<8x16x16x8xf32>) -> tensor<8x16x16x8xi1>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %5 = "stablehlo.reduce_window"(%1, %4) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %48 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<8x16x16x8xf32>, tensor<f32>) -> tensor<8x8x8x8xf32>
    %6 = stablehlo.convolution(%5, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<8x8x8x16xf32>
    %7 = call @relu_0(%6) : (tensor<8x8x8x16xf32>) -> tensor<8x8x8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x8x8x16xf32>
    %9 = stablehlo.compare GT, %6, %8, FLOAT : (tensor<8x8x8x16xf32>, tensor<8x8x8x16xf32>) -> tensor<8x8x8x16xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<f32>
    %11 = "stablehlo.reduce_window"(%7, %10) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %48 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<8x8x8x16xf32>, tensor<f32>) -> tensor<8x4x4x16xf32>
    %cst_3 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x4x4x16xf32>
    %13 = stablehlo.divide %11, %12 : tensor<8x4x4x16xf32>
    %14 = stablehlo.reshape %13 : (tensor<8x4x4x16xf32>) -> tensor<8x256xf32>
    %15 = stablehlo.dot_general %14, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x10xf32>) -> tensor<8x10xf32>
    %16:3 = call @log_softmax(%15) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>)
    %17 = stablehlo.multiply %16#0, %arg4 : tensor<8x10xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %20 = stablehlo.divide %19, %cst_6 : tensor<f32>
    %21 = stablehlo.negate %20 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.negate %cst_7 : tensor<f32>
    %cst_8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %23 = stablehlo.divide %22, %cst_8 : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %26 = stablehlo.multiply %25, %arg4 : tensor<8x10xf32>
    %27 = call @log_softmax_1(%16#1, %16#2, %26) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %28 = stablehlo.dot_general %27, %14, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x256xf32>) -> tensor<10x256xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0] : (tensor<10x256xf32>) -> tensor<256x10xf32>
    %30 = stablehlo.dot_general %27, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<256x10xf32>) -> tensor<8x256xf32>
    %31 = stablehlo.reshape %30 : (tensor<8x256xf32>) -> tensor<8x4x4x16xf32>
    %cst_9 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x4x4x16xf32>
    %33 = stablehlo.divide %31, %32 : tensor<8x4x4x16xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.pad %33, %cst_10, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 1, 1, 0] : (tensor<8x4x4x16xf32>, tensor<f32>) -> tensor<8x9x9x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<f32>
    %36 = "stablehlo.reduce_window"(%34, %35) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %48 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<8x9x9x16xf32>, tensor<f32>) -> tensor<8x8x8x16xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x8x8x16xf32>
    %38 = stablehlo.select %9, %36, %37 : tensor<8x8x8x16xi1>, tensor<8x8x8x16xf32>
    %39 = stablehlo.convolution(%5, %38) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<8x8x8x16xf32>) -> tensor<3x3x8x16xf32>
    %40 = stablehlo.reverse %arg2, dims = [0, 1] : tensor<3x3x8x16xf32>
    %41 = stablehlo.convolution(%38, %40) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x16xf32>, tensor<3x3x8x16xf32>) -> tensor<8x8x8x8xf32>
    %cst_13 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %42 = stablehlo.pad %1, %cst_13, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<8x16x16x8xf32>, tensor<f32>) -> tensor<8x16x16x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = "stablehlo.select_and_scatter"(%42, %41, %cst_14) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %48 = stablehlo.compare GE, %arg5, %arg6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %48 : tensor<i1>
    }, {
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %48 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<8x16x16x8xf32>, tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8x16x16x8xf32>
    %44 = stablehlo.slice %43 [0:8, 0:16, 0:16, 0:8] : (tensor<8x16x16x8xf32>) -> tensor<8x16x16x8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x16x16x8xf32>
    %46 = stablehlo.select %3, %44, %45 : tensor<8x16x16x8xi1>, tensor<8x16x16x8xf32>
    %47 = stablehlo.convolution(%arg3, %46) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x16x16x4xf32>, tensor<8x16x16x8xf32>) -> tensor<3x3x4x8xf32>
    return %21, %29, %47, %39 : tensor<f32>, tensor<256x10xf32>, tensor<3x3x4x8xf32>, tensor<3x3x8x16xf32>
  }
  func.func private @relu(%arg0: tensor<8x16x16x8xf32>) -> tensor<8x16x16x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16x16x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x16x16x8xf32>
    return %1 : tensor<8x16x16x8xf32>
  }
  func.func private @relu_0(%arg0: tensor<8x8x8x16xf32>) -> tensor<8x8x8x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x8x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x8x8x16xf32>
    return %1 : tensor<8x8x8x16xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11, %6, %8 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
