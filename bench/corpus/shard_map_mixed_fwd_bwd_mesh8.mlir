module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<32x64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<64x32xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32x64xf32> {jax.result_info = "result[1][0]"}, tensor<64x64xf32> {jax.result_info = "result[1][1]"}, tensor<64x32xf32> {jax.result_info = "result[1][2]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = call @relu(%0) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %4:5 = sdy.manual_computation(%1, %arg2) in_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{}]>, <@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg4: tensor<2x64xf32>, %arg5: tensor<64x64xf32>) {
      %22 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
      %23 = stablehlo.tanh %22 : tensor<2x64xf32>
      %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x64xf32>
      %25 = stablehlo.subtract %24, %23 : tensor<2x64xf32>
      %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %26 = stablehlo.reduce(%23 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<2x64xf32>, tensor<f32>) -> tensor<64xf32>
      %27 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
      %28 = "stablehlo.all_reduce"(%27) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %34 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %34 : tensor<f32>
      }) : (tensor<1x64xf32>) -> tensor<1x64xf32>
      %cst_8 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
      %29 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<1x64xf32>
      %30 = stablehlo.divide %28, %29 : tensor<1x64xf32>
      %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<2x64xf32>
      %32 = stablehlo.subtract %23, %31 : tensor<2x64xf32>
      %cst_9 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
      %33 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1xf32>
      sdy.return %arg5, %23, %25, %33, %32 : tensor<64x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xf32>, tensor<2x64xf32>
    } : (tensor<16x64xf32>, tensor<64x64xf32>) -> (tensor<512x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<1xf32>, tensor<16x64xf32>)
    %5 = stablehlo.dot_general %4#4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x32xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<16x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %10 = stablehlo.divide %9, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %11 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %13 = stablehlo.multiply %12, %8 : tensor<16x32xf32>
    %14 = stablehlo.dot_general %13, %4#4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %16 = stablehlo.dot_general %13, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %17:2 = sdy.manual_computation(%16, %4#0, %1, %4#1, %4#2, %4#3) in_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{}, {}]>] manual_axes={"data"} (%arg4: tensor<2x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<2x64xf32>, %arg7: tensor<2x64xf32>, %arg8: tensor<2x64xf32>, %arg9: tensor<1xf32>) {
      %22 = stablehlo.reshape %arg9 : (tensor<1xf32>) -> tensor<f32>
      %23 = stablehlo.negate %arg4 : tensor<2x64xf32>
      %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %24 = stablehlo.reduce(%23 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<2x64xf32>, tensor<f32>) -> tensor<64xf32>
      %25 = stablehlo.reshape %24 : (tensor<64xf32>) -> tensor<1x64xf32>
      %26 = "stablehlo.all_reduce"(%25) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
        %39 = stablehlo.add %arg10, %arg11 : tensor<f32>
        stablehlo.return %39 : tensor<f32>
      }) : (tensor<1x64xf32>) -> tensor<1x64xf32>
      %27 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<f32>) -> tensor<1x64xf32>
      %28 = stablehlo.divide %26, %27 : tensor<1x64xf32>
      %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %29 = stablehlo.reduce(%28 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
      %30 = stablehlo.broadcast_in_dim %29, dims = [1] : (tensor<64xf32>) -> tensor<2x64xf32>
      %31 = stablehlo.add %arg4, %30 : tensor<2x64xf32>
      %32 = stablehlo.multiply %31, %arg8 : tensor<2x64xf32>
      %33 = stablehlo.multiply %32, %arg7 : tensor<2x64xf32>
      %34 = stablehlo.add %32, %33 : tensor<2x64xf32>
      %35 = stablehlo.dot_general %34, %arg6, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<64x64xf32>
      %36 = stablehlo.transpose %35, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
      %37 = stablehlo.dot_general %34, %arg5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
      %38 = "stablehlo.all_reduce"(%36) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
        %39 = stablehlo.add %arg10, %arg11 : tensor<f32>
        stablehlo.return %39 : tensor<f32>
      }) : (tensor<64x64xf32>) -> tensor<64x64xf32>
      sdy.return %37, %38 : tensor<2x64xf32>, tensor<64x64xf32>
    } : (tensor<16x64xf32>, tensor<512x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<1xf32>) -> (tensor<16x64xf32>, tensor<64x64xf32>)
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %19 = stablehlo.select %3, %17#0, %18 : tensor<16x64xi1>, tensor<16x64xf32>
    %20 = stablehlo.dot_general %19, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    return %10, %21, %17#1, %15 : tensor<f32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x32xf32>
  }
  func.func private @relu(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
}
