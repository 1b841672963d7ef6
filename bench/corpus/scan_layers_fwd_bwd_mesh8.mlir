module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<4x32x32xf32>, %arg1: tensor<4x32xf32>, %arg2: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x32x32xf32> {jax.result_info = "result[1][0]"}, tensor<4x32xf32> {jax.result_info = "result[1][1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %7:11 = stablehlo.while(%iterArg = %arg0, %iterArg_18 = %arg1, %iterArg_19 = %c, %iterArg_20 = %arg2, %iterArg_21 = %0, %iterArg_22 = %1, %iterArg_23 = %2, %iterArg_24 = %3, %iterArg_25 = %4, %iterArg_26 = %5, %iterArg_27 = %6) : tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<4xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>
    cond {
      %c_28 = stablehlo.constant dense<4> : tensor<i32>
      %24 = stablehlo.compare LT, %iterArg_19, %c_28, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %24 : tensor<i1>
    } do {
      %24 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_19) : (tensor<4x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %25 = func.call @dynamic_index_in_dim_0(%iterArg_18, %iterArg_19) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %26:8 = func.call @closed_call(%iterArg_20, %24, %25) : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> (tensor<16x32xf32>, tensor<f32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
      %27 = func.call @dynamic_update_index_in_dim(%iterArg_21, %26#1, %iterArg_19) : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
      %28 = func.call @dynamic_update_index_in_dim_1(%iterArg_22, %26#2, %iterArg_19) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %29 = func.call @dynamic_update_index_in_dim_2(%iterArg_23, %26#3, %iterArg_19) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %30 = func.call @dynamic_update_index_in_dim_2(%iterArg_24, %26#4, %iterArg_19) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %31 = func.call @dynamic_update_index_in_dim_2(%iterArg_25, %26#5, %iterArg_19) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %32 = func.call @dynamic_update_index_in_dim_2(%iterArg_26, %26#6, %iterArg_19) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %33 = func.call @dynamic_update_index_in_dim_2(%iterArg_27, %26#7, %iterArg_19) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %c_28 = stablehlo.constant dense<1> : tensor<i32>
      %34 = stablehlo.add %iterArg_19, %c_28 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_18, %34, %26#0, %27, %28, %29, %30, %31, %32, %33 : tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<4xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>
    }
    %8 = stablehlo.multiply %7#3, %7#3 : tensor<16x32xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %10 = stablehlo.multiply %9, %7#3 : tensor<16x32xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%8 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %12 = stablehlo.divide %11, %cst_8 : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%7#4 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %14 = stablehlo.multiply %cst_10, %13 : tensor<f32>
    %15 = stablehlo.add %12, %14 : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.multiply %cst_11, %cst_12 : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_14 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %18 = stablehlo.divide %cst_13, %cst_14 : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %20 = stablehlo.multiply %19, %10 : tensor<16x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x32x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %23:12 = stablehlo.while(%iterArg = %17, %iterArg_18 = %arg0, %iterArg_19 = %7#5, %iterArg_20 = %7#6, %iterArg_21 = %7#7, %iterArg_22 = %7#8, %iterArg_23 = %7#9, %iterArg_24 = %7#10, %iterArg_25 = %c_17, %iterArg_26 = %20, %iterArg_27 = %21, %iterArg_28 = %22) : tensor<4xf32>, tensor<4x32x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<4x32x32xf32>, tensor<4x32xf32>
    cond {
      %c_29 = stablehlo.constant dense<4> : tensor<i32>
      %24 = stablehlo.compare LT, %iterArg_25, %c_29, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %24 : tensor<i1>
    } do {
      %c_29 = stablehlo.constant dense<4> : tensor<i32>
      %24 = stablehlo.subtract %c_29, %iterArg_25 : tensor<i32>
      %c_30 = stablehlo.constant dense<1> : tensor<i32>
      %25 = stablehlo.subtract %24, %c_30 : tensor<i32>
      %26 = func.call @dynamic_index_in_dim_3(%iterArg, %25) : (tensor<4xf32>, tensor<i32>) -> tensor<f32>
      %27 = func.call @dynamic_index_in_dim(%iterArg_18, %25) : (tensor<4x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %28 = func.call @dynamic_index_in_dim_4(%iterArg_19, %25) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %29 = func.call @dynamic_index_in_dim_5(%iterArg_20, %25) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %30 = func.call @dynamic_index_in_dim_5(%iterArg_21, %25) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %31 = func.call @dynamic_index_in_dim_5(%iterArg_22, %25) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %32 = func.call @dynamic_index_in_dim_5(%iterArg_23, %25) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %33 = func.call @dynamic_index_in_dim_5(%iterArg_24, %25) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %34:3 = func.call @closed_call_6(%iterArg_26, %26, %27, %28, %29, %30, %31, %32, %33) : (tensor<16x32xf32>, tensor<f32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>)
      %35 = func.call @dynamic_update_index_in_dim_7(%iterArg_27, %34#1, %25) : (tensor<4x32x32xf32>, tensor<32x32xf32>, tensor<i32>) -> tensor<4x32x32xf32>
      %36 = func.call @dynamic_update_index_in_dim_8(%iterArg_28, %34#2, %25) : (tensor<4x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<4x32xf32>
      %c_31 = stablehlo.constant dense<1> : tensor<i32>
      %37 = stablehlo.add %iterArg_25, %c_31 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %iterArg_24, %37, %34#0, %35, %36 : tensor<4xf32>, tensor<4x32x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<4x32x32xf32>, tensor<4x32xf32>
    }
    return %15, %23#10, %23#11 : tensor<f32>, tensor<4x32x32xf32>, tensor<4x32xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x32x32xf32>, %arg1: tensor<i32>) -> tensor<32x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 32] : (tensor<4x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x32xf32>) -> tensor<32x32xf32>
    return %1 : tensor<32x32xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<4x32xf32>, %arg1: tensor<i32>) -> tensor<32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 32] : (tensor<4x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32xf32>) -> tensor<32xf32>
    return %1 : tensor<32xf32>
  }
  func.func private @closed_call(%arg0: tensor<16x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<32xf32>) -> (tensor<16x32xf32>, tensor<f32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x32xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<16x32xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<16x32xf32>
    %6 = stablehlo.multiply %3, %3 : tensor<16x32xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<16x32xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %10 = stablehlo.multiply %9, %5 : tensor<16x32xf32>
    %11 = stablehlo.add %3, %10 : tensor<16x32xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<16x32xf32>
    %14 = stablehlo.tanh %13 : tensor<16x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %16 = stablehlo.subtract %15, %14 : tensor<16x32xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %18 = stablehlo.add %17, %14 : tensor<16x32xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<16x32xf32>
    %21 = stablehlo.multiply %3, %20 : tensor<16x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.reduce(%21 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
    return %21, %22, %arg0, %8, %14, %16, %20, %3 : tensor<16x32xf32>, tensor<f32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim_1(%arg0: tensor<4x16x32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<i32>) -> tensor<4x16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x16x32xf32>, tensor<1x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x32xf32>
    return %1 : tensor<4x16x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<4x16x32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<i32>) -> tensor<4x16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x16x32xf32>, tensor<1x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x32xf32>
    return %1 : tensor<4x16x32xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<f32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<4xf32>, tensor<i32>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<4x16x32xf32>, %arg1: tensor<i32>) -> tensor<16x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 16, 32] : (tensor<4x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @dynamic_index_in_dim_5(%arg0: tensor<4x16x32xf32>, %arg1: tensor<i32>) -> tensor<16x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 16, 32] : (tensor<4x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @closed_call_6(%arg0: tensor<16x32xf32>, %arg1: tensor<f32>, %arg2: tensor<32x32xf32>, %arg3: tensor<16x32xf32>, %arg4: tensor<16x32xf32>, %arg5: tensor<16x32xf32>, %arg6: tensor<16x32xf32>, %arg7: tensor<16x32xf32>, %arg8: tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<16x32xf32>
    %2 = stablehlo.multiply %arg8, %1 : tensor<16x32xf32>
    %3 = stablehlo.multiply %1, %arg7 : tensor<16x32xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %5 = stablehlo.multiply %4, %2 : tensor<16x32xf32>
    %6 = stablehlo.multiply %5, %arg6 : tensor<16x32xf32>
    %7 = stablehlo.multiply %6, %arg5 : tensor<16x32xf32>
    %8 = stablehlo.add %6, %7 : tensor<16x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<16x32xf32>
    %11 = stablehlo.add %3, %10 : tensor<16x32xf32>
    %cst_1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %13 = stablehlo.multiply %12, %10 : tensor<16x32xf32>
    %14 = stablehlo.multiply %13, %arg4 : tensor<16x32xf32>
    %15 = stablehlo.add %11, %14 : tensor<16x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %17 = stablehlo.reshape %16 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %19 = stablehlo.dot_general %15, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
    %20 = stablehlo.transpose %19, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %21 = stablehlo.dot_general %15, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    return %21, %20, %18 : tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<4x32x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<i32>) -> tensor<4x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x32xf32>) -> tensor<1x32x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x32x32xf32>, tensor<1x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x32xf32>
    return %1 : tensor<4x32x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<i32>) -> tensor<4x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x32xf32>, tensor<1x32xf32>, tensor<i32>, tensor<i32>) -> tensor<4x32xf32>
    return %1 : tensor<4x32xf32>
  }
}
