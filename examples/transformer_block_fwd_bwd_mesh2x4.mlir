module @jit_transformer_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg6: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg7: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg8: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg9: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg10: tensor<16x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<32xf32> {jax.result_info = "result[1]['ln1_bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1]['ln1_scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1]['ln2_bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1]['ln2_scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x64xf32> {jax.result_info = "result[1]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<64x32xf32> {jax.result_info = "result[1]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<4x8x32xf32> {jax.result_info = "result[1]['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg10 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %5 = stablehlo.subtract %arg10, %4 : tensor<16x8x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<16x8x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %12 = stablehlo.subtract %arg10, %11 : tensor<16x8x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<16x8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<16x8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<16x8x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<16x8x32xf32>
    %21 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %23 = stablehlo.add %20, %22 : tensor<16x8x32xf32>
    %24 = stablehlo.dot_general %arg8, %23, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x16x8xf32>
    %25 = stablehlo.transpose %24, dims = [2, 0, 3, 1] : (tensor<4x8x16x8xf32>) -> tensor<16x4x8x8xf32>
    %26 = stablehlo.dot_general %arg6, %23, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x16x8xf32>
    %27 = stablehlo.transpose %26, dims = [2, 0, 3, 1] : (tensor<4x8x16x8xf32>) -> tensor<16x4x8x8xf32>
    %28 = stablehlo.dot_general %arg9, %23, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x16x8xf32>
    %29 = stablehlo.transpose %28, dims = [2, 0, 3, 1] : (tensor<4x8x16x8xf32>) -> tensor<16x4x8x8xf32>
    %30 = stablehlo.dot_general %25, %27, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %cst_4 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x4x8x8xf32>
    %32 = stablehlo.divide %30, %31 : tensor<16x4x8x8xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %33 = stablehlo.reduce(%32 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<16x4x8x8xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x4x8xf32>
    %35 = stablehlo.maximum %34, %33 : tensor<16x4x8xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<16x4x8xf32>) -> tensor<16x4x8x1xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %38 = stablehlo.subtract %32, %37 : tensor<16x4x8x8xf32>
    %39 = stablehlo.exponential %38 : tensor<16x4x8x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x8xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<16x4x8xf32>) -> tensor<16x4x8x1xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %43 = stablehlo.divide %39, %42 : tensor<16x4x8x8xf32>
    %44 = stablehlo.multiply %41, %41 : tensor<16x4x8x1xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<16x4x8x1xf32>
    %46 = stablehlo.divide %45, %44 : tensor<16x4x8x1xf32>
    %47 = stablehlo.dot_general %29, %43, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %48 = stablehlo.dot_general %47, %arg7, contracting_dims = [1, 2] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<4x8x32xf32>) -> tensor<16x8x32xf32>
    %49 = stablehlo.add %arg10, %48 : tensor<16x8x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %53 = stablehlo.divide %51, %52 : tensor<16x8x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %55 = stablehlo.subtract %49, %54 : tensor<16x8x32xf32>
    %56 = stablehlo.multiply %55, %55 : tensor<16x8x32xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %58 = stablehlo.multiply %57, %55 : tensor<16x8x32xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%56 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %62 = stablehlo.divide %60, %61 : tensor<16x8x1xf32>
    %63 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %64 = stablehlo.subtract %49, %63 : tensor<16x8x32xf32>
    %cst_14 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %66 = stablehlo.add %62, %65 : tensor<16x8x1xf32>
    %67 = stablehlo.rsqrt %66 : tensor<16x8x1xf32>
    %68 = stablehlo.divide %67, %66 : tensor<16x8x1xf32>
    %cst_15 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %70 = stablehlo.multiply %69, %68 : tensor<16x8x1xf32>
    %71 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %72 = stablehlo.multiply %64, %71 : tensor<16x8x32xf32>
    %73 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %75 = stablehlo.multiply %72, %74 : tensor<16x8x32xf32>
    %76 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %78 = stablehlo.add %75, %77 : tensor<16x8x32xf32>
    %79 = stablehlo.dot_general %78, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<32x64xf32>) -> tensor<16x8x64xf32>
    %80 = stablehlo.multiply %79, %79 : tensor<16x8x64xf32>
    %81 = stablehlo.multiply %80, %79 : tensor<16x8x64xf32>
    %82 = stablehlo.multiply %79, %79 : tensor<16x8x64xf32>
    %cst_16 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %84 = stablehlo.multiply %83, %82 : tensor<16x8x64xf32>
    %cst_17 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %86 = stablehlo.multiply %85, %81 : tensor<16x8x64xf32>
    %87 = stablehlo.add %79, %86 : tensor<16x8x64xf32>
    %cst_18 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %89 = stablehlo.multiply %88, %87 : tensor<16x8x64xf32>
    %90 = stablehlo.tanh %89 : tensor<16x8x64xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %92 = stablehlo.subtract %91, %90 : tensor<16x8x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %94 = stablehlo.add %93, %90 : tensor<16x8x64xf32>
    %cst_21 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %96 = stablehlo.multiply %95, %94 : tensor<16x8x64xf32>
    %97 = stablehlo.multiply %79, %96 : tensor<16x8x64xf32>
    %98 = stablehlo.dot_general %97, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<64x32xf32>) -> tensor<16x8x32xf32>
    %99 = stablehlo.add %49, %98 : tensor<16x8x32xf32>
    %100 = stablehlo.multiply %99, %99 : tensor<16x8x32xf32>
    %cst_22 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %102 = stablehlo.multiply %101, %99 : tensor<16x8x32xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %103 = stablehlo.reduce(%100 init: %cst_23) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_24 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %104 = stablehlo.divide %103, %cst_24 : tensor<f32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_26 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %105 = stablehlo.divide %cst_25, %cst_26 : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %107 = stablehlo.multiply %106, %102 : tensor<16x8x32xf32>
    %108 = stablehlo.dot_general %107, %97, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x8x64xf32>) -> tensor<32x64xf32>
    %109 = stablehlo.transpose %108, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %110 = stablehlo.dot_general %107, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<64x32xf32>) -> tensor<16x8x64xf32>
    %111 = stablehlo.multiply %79, %110 : tensor<16x8x64xf32>
    %112 = stablehlo.multiply %110, %96 : tensor<16x8x64xf32>
    %cst_27 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %113 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %114 = stablehlo.multiply %113, %111 : tensor<16x8x64xf32>
    %115 = stablehlo.multiply %114, %92 : tensor<16x8x64xf32>
    %116 = stablehlo.multiply %115, %90 : tensor<16x8x64xf32>
    %117 = stablehlo.add %115, %116 : tensor<16x8x64xf32>
    %cst_28 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %119 = stablehlo.multiply %118, %117 : tensor<16x8x64xf32>
    %120 = stablehlo.add %112, %119 : tensor<16x8x64xf32>
    %cst_29 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %122 = stablehlo.multiply %121, %119 : tensor<16x8x64xf32>
    %123 = stablehlo.multiply %122, %84 : tensor<16x8x64xf32>
    %124 = stablehlo.add %120, %123 : tensor<16x8x64xf32>
    %125 = stablehlo.dot_general %124, %78, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<16x8x32xf32>) -> tensor<64x32xf32>
    %126 = stablehlo.transpose %125, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %127 = stablehlo.dot_general %124, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<32x64xf32>) -> tensor<16x8x32xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %128 = stablehlo.reduce(%127 init: %cst_30) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %129 = stablehlo.reshape %128 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.reduce(%129 init: %cst_31) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %131 = stablehlo.multiply %72, %127 : tensor<16x8x32xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %132 = stablehlo.reduce(%131 init: %cst_32) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %133 = stablehlo.reshape %132 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %134 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %135 = stablehlo.multiply %127, %134 : tensor<16x8x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %136 = stablehlo.reduce(%133 init: %cst_33) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %137 = stablehlo.multiply %64, %135 : tensor<16x8x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.reduce(%137 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %139 = stablehlo.reshape %138 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %140 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %141 = stablehlo.multiply %135, %140 : tensor<16x8x32xf32>
    %142 = stablehlo.multiply %139, %70 : tensor<16x8x1xf32>
    %143 = stablehlo.negate %141 : tensor<16x8x32xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.reduce(%143 init: %cst_35) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %145 = stablehlo.reshape %144 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %146 = stablehlo.add %107, %141 : tensor<16x8x32xf32>
    %cst_36 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %148 = stablehlo.divide %142, %147 : tensor<16x8x1xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %149 = stablehlo.reduce(%148 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x32xf32>
    %151 = stablehlo.multiply %150, %58 : tensor<16x8x32xf32>
    %152 = stablehlo.negate %151 : tensor<16x8x32xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %153 = stablehlo.reduce(%152 init: %cst_38) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %154 = stablehlo.reshape %153 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %155 = stablehlo.add %146, %151 : tensor<16x8x32xf32>
    %156 = stablehlo.add %145, %154 : tensor<16x8x1xf32>
    %cst_39 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %158 = stablehlo.divide %156, %157 : tensor<16x8x1xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %159 = stablehlo.reduce(%158 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %160 = stablehlo.broadcast_in_dim %159, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x32xf32>
    %161 = stablehlo.add %155, %160 : tensor<16x8x32xf32>
    %162 = stablehlo.dot_general %161, %47, contracting_dims = [0, 1] x [0, 3], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x4x8x8xf32>) -> tensor<32x4x8xf32>
    %163 = stablehlo.transpose %162, dims = [1, 2, 0] : (tensor<32x4x8xf32>) -> tensor<4x8x32xf32>
    %164 = stablehlo.dot_general %161, %arg7, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<4x8x32xf32>) -> tensor<16x8x4x8xf32>
    %165 = stablehlo.transpose %164, dims = [0, 2, 3, 1] : (tensor<16x8x4x8xf32>) -> tensor<16x4x8x8xf32>
    %166 = stablehlo.dot_general %165, %29, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %167 = stablehlo.dot_general %165, %43, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %168 = stablehlo.transpose %167, dims = [0, 1, 3, 2] : (tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %169 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %170 = stablehlo.multiply %166, %169 : tensor<16x4x8x8xf32>
    %171 = stablehlo.multiply %170, %39 : tensor<16x4x8x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %172 = stablehlo.reduce(%171 init: %cst_41) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x8xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %173 = stablehlo.reshape %172 : (tensor<16x4x8xf32>) -> tensor<16x4x8x1xf32>
    %174 = stablehlo.negate %173 : tensor<16x4x8x1xf32>
    %175 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %176 = stablehlo.divide %166, %175 : tensor<16x4x8x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %177 = stablehlo.reduce(%174 init: %cst_42) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x1xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2] : (tensor<16x4x8xf32>) -> tensor<16x4x8x8xf32>
    %179 = stablehlo.add %176, %178 : tensor<16x4x8x8xf32>
    %180 = stablehlo.multiply %179, %39 : tensor<16x4x8x8xf32>
    %cst_43 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %181 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<16x4x8x8xf32>
    %182 = stablehlo.divide %180, %181 : tensor<16x4x8x8xf32>
    %183 = stablehlo.dot_general %182, %25, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %184 = stablehlo.dot_general %182, %27, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %185 = stablehlo.transpose %168, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %186 = stablehlo.dot_general %185, %arg9, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %187 = stablehlo.dot_general %185, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %188 = stablehlo.transpose %187, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %189 = stablehlo.transpose %183, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %190 = stablehlo.dot_general %189, %arg6, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %191 = stablehlo.add %186, %190 : tensor<16x8x32xf32>
    %192 = stablehlo.dot_general %189, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %193 = stablehlo.transpose %192, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %194 = stablehlo.transpose %184, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %195 = stablehlo.dot_general %194, %arg8, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %196 = stablehlo.add %191, %195 : tensor<16x8x32xf32>
    %197 = stablehlo.dot_general %194, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %198 = stablehlo.transpose %197, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.reduce(%196 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %200 = stablehlo.reshape %199 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %201 = stablehlo.reduce(%200 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %202 = stablehlo.multiply %17, %196 : tensor<16x8x32xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.reduce(%202 init: %cst_46) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %204 = stablehlo.reshape %203 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.reduce(%204 init: %cst_47) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    return %104, %201, %205, %130, %136, %126, %109, %193, %163, %198, %188 : tensor<f32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>
  }
}
