module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<64x32xf32>, %arg6: tensor<32x4x8xf32>, %arg7: tensor<4x8x32xf32>, %arg8: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg9: tensor<32x4x8xf32>, %arg10: tensor<16x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1]['ln1_bias']"}, tensor<32xf32> {jax.result_info = "result[1]['ln1_scale']"}, tensor<32xf32> {jax.result_info = "result[1]['ln2_bias']"}, tensor<32xf32> {jax.result_info = "result[1]['ln2_scale']"}, tensor<32x64xf32> {jax.result_info = "result[1]['w1']"}, tensor<64x32xf32> {jax.result_info = "result[1]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wk']"}, tensor<4x8x32xf32> {jax.result_info = "result[1]['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wq']"}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wv']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg10 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %5 = stablehlo.subtract %arg10, %4 : tensor<16x8x32xf32>
    %6 = chlo.square %5 : tensor<16x8x32xf32> -> tensor<16x8x32xf32>
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
    %47 = sdy.sharding_constraint %43 <@mesh, [{"data"}, {"model"}, {}, {}]> : tensor<16x4x8x8xf32>
    %48 = stablehlo.dot_general %29, %47, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %49 = stablehlo.dot_general %48, %arg7, contracting_dims = [1, 2] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<4x8x32xf32>) -> tensor<16x8x32xf32>
    %50 = stablehlo.add %arg10, %49 : tensor<16x8x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %54 = stablehlo.divide %52, %53 : tensor<16x8x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %56 = stablehlo.subtract %50, %55 : tensor<16x8x32xf32>
    %57 = chlo.square %56 : tensor<16x8x32xf32> -> tensor<16x8x32xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %59 = stablehlo.multiply %58, %56 : tensor<16x8x32xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%57 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %63 = stablehlo.divide %61, %62 : tensor<16x8x1xf32>
    %64 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %65 = stablehlo.subtract %50, %64 : tensor<16x8x32xf32>
    %cst_14 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %67 = stablehlo.add %63, %66 : tensor<16x8x1xf32>
    %68 = stablehlo.rsqrt %67 : tensor<16x8x1xf32>
    %69 = stablehlo.divide %68, %67 : tensor<16x8x1xf32>
    %cst_15 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %71 = stablehlo.multiply %70, %69 : tensor<16x8x1xf32>
    %72 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %73 = stablehlo.multiply %65, %72 : tensor<16x8x32xf32>
    %74 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %76 = stablehlo.multiply %73, %75 : tensor<16x8x32xf32>
    %77 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %79 = stablehlo.add %76, %78 : tensor<16x8x32xf32>
    %80 = stablehlo.dot_general %79, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<32x64xf32>) -> tensor<16x8x64xf32>
    %81 = sdy.sharding_constraint %80 <@mesh, [{"data"}, {}, {"model"}]> : tensor<16x8x64xf32>
    %82 = stablehlo.multiply %81, %81 : tensor<16x8x64xf32>
    %83 = stablehlo.multiply %82, %81 : tensor<16x8x64xf32>
    %84 = stablehlo.multiply %81, %81 : tensor<16x8x64xf32>
    %cst_16 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %86 = stablehlo.multiply %85, %84 : tensor<16x8x64xf32>
    %cst_17 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %88 = stablehlo.multiply %87, %83 : tensor<16x8x64xf32>
    %89 = stablehlo.add %81, %88 : tensor<16x8x64xf32>
    %cst_18 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %91 = stablehlo.multiply %90, %89 : tensor<16x8x64xf32>
    %92 = stablehlo.tanh %91 : tensor<16x8x64xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %94 = stablehlo.subtract %93, %92 : tensor<16x8x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %96 = stablehlo.add %95, %92 : tensor<16x8x64xf32>
    %cst_21 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %98 = stablehlo.multiply %97, %96 : tensor<16x8x64xf32>
    %99 = stablehlo.multiply %81, %98 : tensor<16x8x64xf32>
    %100 = stablehlo.dot_general %99, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<64x32xf32>) -> tensor<16x8x32xf32>
    %101 = stablehlo.add %50, %100 : tensor<16x8x32xf32>
    %102 = stablehlo.multiply %101, %101 : tensor<16x8x32xf32>
    %cst_22 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %104 = stablehlo.multiply %103, %101 : tensor<16x8x32xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %105 = stablehlo.reduce(%102 init: %cst_23) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_24 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %106 = stablehlo.divide %105, %cst_24 : tensor<f32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_26 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %107 = stablehlo.divide %cst_25, %cst_26 : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %109 = stablehlo.multiply %108, %104 : tensor<16x8x32xf32>
    %110 = stablehlo.dot_general %109, %99, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x8x64xf32>) -> tensor<32x64xf32>
    %111 = stablehlo.transpose %110, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %112 = stablehlo.dot_general %109, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<64x32xf32>) -> tensor<16x8x64xf32>
    %113 = stablehlo.multiply %81, %112 : tensor<16x8x64xf32>
    %114 = stablehlo.multiply %112, %98 : tensor<16x8x64xf32>
    %cst_27 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %116 = stablehlo.multiply %115, %113 : tensor<16x8x64xf32>
    %117 = stablehlo.multiply %116, %94 : tensor<16x8x64xf32>
    %118 = stablehlo.multiply %117, %92 : tensor<16x8x64xf32>
    %119 = stablehlo.add %117, %118 : tensor<16x8x64xf32>
    %cst_28 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %121 = stablehlo.multiply %120, %119 : tensor<16x8x64xf32>
    %122 = stablehlo.add %114, %121 : tensor<16x8x64xf32>
    %cst_29 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %124 = stablehlo.multiply %123, %121 : tensor<16x8x64xf32>
    %125 = stablehlo.multiply %124, %86 : tensor<16x8x64xf32>
    %126 = stablehlo.add %122, %125 : tensor<16x8x64xf32>
    %127 = sdy.sharding_constraint %126 <@mesh, [{"data"}, {}, {"model"}]> : tensor<16x8x64xf32>
    %128 = stablehlo.dot_general %127, %79, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<16x8x32xf32>) -> tensor<64x32xf32>
    %129 = stablehlo.transpose %128, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %130 = stablehlo.dot_general %127, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<32x64xf32>) -> tensor<16x8x32xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %131 = stablehlo.reduce(%130 init: %cst_30) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %132 = stablehlo.reshape %131 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %133 = stablehlo.reduce(%132 init: %cst_31) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %134 = stablehlo.multiply %73, %130 : tensor<16x8x32xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135 = stablehlo.reduce(%134 init: %cst_32) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %136 = stablehlo.reshape %135 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %137 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %138 = stablehlo.multiply %130, %137 : tensor<16x8x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %139 = stablehlo.reduce(%136 init: %cst_33) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %140 = stablehlo.multiply %65, %138 : tensor<16x8x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %141 = stablehlo.reduce(%140 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %142 = stablehlo.reshape %141 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %143 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %144 = stablehlo.multiply %138, %143 : tensor<16x8x32xf32>
    %145 = stablehlo.multiply %142, %71 : tensor<16x8x1xf32>
    %146 = stablehlo.negate %144 : tensor<16x8x32xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %147 = stablehlo.reduce(%146 init: %cst_35) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %148 = stablehlo.reshape %147 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %149 = stablehlo.add %109, %144 : tensor<16x8x32xf32>
    %cst_36 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %151 = stablehlo.divide %145, %150 : tensor<16x8x1xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %152 = stablehlo.reduce(%151 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %153 = stablehlo.broadcast_in_dim %152, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x32xf32>
    %154 = stablehlo.multiply %153, %59 : tensor<16x8x32xf32>
    %155 = stablehlo.negate %154 : tensor<16x8x32xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %156 = stablehlo.reduce(%155 init: %cst_38) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %157 = stablehlo.reshape %156 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %158 = stablehlo.add %149, %154 : tensor<16x8x32xf32>
    %159 = stablehlo.add %148, %157 : tensor<16x8x1xf32>
    %cst_39 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %161 = stablehlo.divide %159, %160 : tensor<16x8x1xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %162 = stablehlo.reduce(%161 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x32xf32>
    %164 = stablehlo.add %158, %163 : tensor<16x8x32xf32>
    %165 = stablehlo.dot_general %164, %48, contracting_dims = [0, 1] x [0, 3], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x4x8x8xf32>) -> tensor<32x4x8xf32>
    %166 = stablehlo.transpose %165, dims = [1, 2, 0] : (tensor<32x4x8xf32>) -> tensor<4x8x32xf32>
    %167 = stablehlo.dot_general %164, %arg7, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<4x8x32xf32>) -> tensor<16x8x4x8xf32>
    %168 = stablehlo.transpose %167, dims = [0, 2, 3, 1] : (tensor<16x8x4x8xf32>) -> tensor<16x4x8x8xf32>
    %169 = stablehlo.dot_general %168, %29, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %170 = stablehlo.dot_general %168, %47, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %171 = stablehlo.transpose %170, dims = [0, 1, 3, 2] : (tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %172 = sdy.sharding_constraint %169 <@mesh, [{"data"}, {"model"}, {}, {}]> : tensor<16x4x8x8xf32>
    %173 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %174 = stablehlo.multiply %172, %173 : tensor<16x4x8x8xf32>
    %175 = stablehlo.multiply %174, %39 : tensor<16x4x8x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %176 = stablehlo.reduce(%175 init: %cst_41) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x8xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %177 = stablehlo.reshape %176 : (tensor<16x4x8xf32>) -> tensor<16x4x8x1xf32>
    %178 = stablehlo.negate %177 : tensor<16x4x8x1xf32>
    %179 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %180 = stablehlo.divide %172, %179 : tensor<16x4x8x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %181 = stablehlo.reduce(%178 init: %cst_42) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x1xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %182 = stablehlo.broadcast_in_dim %181, dims = [0, 1, 2] : (tensor<16x4x8xf32>) -> tensor<16x4x8x8xf32>
    %183 = stablehlo.add %180, %182 : tensor<16x4x8x8xf32>
    %184 = stablehlo.multiply %183, %39 : tensor<16x4x8x8xf32>
    %cst_43 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<16x4x8x8xf32>
    %186 = stablehlo.divide %184, %185 : tensor<16x4x8x8xf32>
    %187 = stablehlo.dot_general %186, %25, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %188 = stablehlo.dot_general %186, %27, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %189 = stablehlo.transpose %171, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %190 = stablehlo.dot_general %189, %arg9, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %191 = stablehlo.dot_general %189, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %192 = stablehlo.transpose %191, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %193 = stablehlo.transpose %187, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %194 = stablehlo.dot_general %193, %arg6, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %195 = stablehlo.add %190, %194 : tensor<16x8x32xf32>
    %196 = stablehlo.dot_general %193, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %197 = stablehlo.transpose %196, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %198 = stablehlo.transpose %188, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %199 = stablehlo.dot_general %198, %arg8, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %200 = stablehlo.add %195, %199 : tensor<16x8x32xf32>
    %201 = stablehlo.dot_general %198, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %202 = stablehlo.transpose %201, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.reduce(%200 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %204 = stablehlo.reshape %203 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.reduce(%204 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %206 = stablehlo.multiply %17, %200 : tensor<16x8x32xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %207 = stablehlo.reduce(%206 init: %cst_46) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %208 = stablehlo.reshape %207 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %209 = stablehlo.reduce(%208 init: %cst_47) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    return %106, %205, %209, %133, %139, %129, %111, %197, %166, %202, %192 : tensor<f32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>
  }
}
