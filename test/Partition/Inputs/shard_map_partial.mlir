module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<16x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg2: tensor<8x32xf32>, %arg3: tensor<32x64xf32>) {
      %3 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
      %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {?}]> : tensor<8x64xf32>
      %5 = stablehlo.tanh %4 : tensor<8x64xf32>
      %6 = sdy.sharding_constraint %5 <@mesh, [{?}, {?}]> : tensor<8x64xf32>
      %7 = sdy.sharding_constraint %6 <@mesh, [{}, {"y"}]> : tensor<8x64xf32>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.reduce(%7 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<8x64xf32>, tensor<f32>) -> tensor<64xf32>
      %9 = sdy.sharding_constraint %8 <@mesh, [{?}]> : tensor<64xf32>
      %10 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
      %11 = sdy.sharding_constraint %10 <@mesh, [{?}, {?}]> : tensor<1x64xf32>
      %cst_1 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x64xf32>
      %13 = sdy.sharding_constraint %12 <@mesh, [{?}, {?}]> : tensor<1x64xf32>
      %14 = stablehlo.divide %11, %13 : tensor<1x64xf32>
      %15 = sdy.sharding_constraint %14 <@mesh, [{?}, {?}]> : tensor<1x64xf32>
      %16 = "stablehlo.all_reduce"(%15) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %25 = stablehlo.add %arg4, %arg5 : tensor<f32>
        %26 = sdy.sharding_constraint %25 <@mesh, []> : tensor<f32>
        stablehlo.return %26 : tensor<f32>
      }) : (tensor<1x64xf32>) -> tensor<1x64xf32>
      %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x64xf32>
      %18 = sdy.sharding_constraint %17 <@mesh, [{?}, {?}]> : tensor<1x64xf32>
      %19 = stablehlo.divide %16, %18 : tensor<1x64xf32>
      %20 = sdy.sharding_constraint %19 <@mesh, [{?}, {?}]> : tensor<1x64xf32>
      %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
      %22 = sdy.sharding_constraint %21 <@mesh, [{?}, {?}]> : tensor<8x64xf32>
      %23 = stablehlo.subtract %7, %22 : tensor<8x64xf32>
      %24 = sdy.sharding_constraint %23 <@mesh, [{?}, {?}]> : tensor<8x64xf32>
      sdy.return %24 : tensor<8x64xf32>
    } : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<16x64xf32>
    return %2 : tensor<16x64xf32>
  }
}
