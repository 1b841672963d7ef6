module @jit_loss_and_grads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg5: tensor<64x32xf32>, %arg6: tensor<32x4x8xf32>, %arg7: tensor<4x8x32xf32>, %arg8: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg9: tensor<32x4x8xf32>, %arg10: tensor<16x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1]['ln1_bias']"}, tensor<32xf32> {jax.result_info = "result[1]['ln1_scale']"}, tensor<32xf32> {jax.result_info = "result[1]['ln2_bias']"}, tensor<32xf32> {jax.result_info = "result[1]['ln2_scale']"}, tensor<32x64xf32> {jax.result_info = "result[1]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<64x32xf32> {jax.result_info = "result[1]['w2']"}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wk']"}, tensor<4x8x32xf32> {jax.result_info = "result[1]['wo']"}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wq']"}, tensor<32x4x8xf32> {jax.result_info = "result[1]['wv']"}) {
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
    %56 = chlo.square %55 : tensor<16x8x32xf32> -> tensor<16x8x32xf32>
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
    %80 = sdy.sharding_constraint %79 <@mesh, [{"data"}, {}, {}]> : tensor<16x8x64xf32>
    %81 = stablehlo.multiply %80, %80 : tensor<16x8x64xf32>
    %82 = stablehlo.multiply %81, %80 : tensor<16x8x64xf32>
    %83 = stablehlo.multiply %80, %80 : tensor<16x8x64xf32>
    %cst_16 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<16x8x64xf32>
    %cst_17 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %87 = stablehlo.multiply %86, %82 : tensor<16x8x64xf32>
    %88 = stablehlo.add %80, %87 : tensor<16x8x64xf32>
    %cst_18 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<16x8x64xf32>
    %91 = stablehlo.tanh %90 : tensor<16x8x64xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %93 = stablehlo.subtract %92, %91 : tensor<16x8x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %95 = stablehlo.add %94, %91 : tensor<16x8x64xf32>
    %cst_21 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %97 = stablehlo.multiply %96, %95 : tensor<16x8x64xf32>
    %98 = stablehlo.multiply %80, %97 : tensor<16x8x64xf32>
    %99 = stablehlo.dot_general %98, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<64x32xf32>) -> tensor<16x8x32xf32>
    %100 = stablehlo.add %49, %99 : tensor<16x8x32xf32>
    %101 = stablehlo.multiply %100, %100 : tensor<16x8x32xf32>
    %cst_22 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %102 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %103 = stablehlo.multiply %102, %100 : tensor<16x8x32xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.reduce(%101 init: %cst_23) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_24 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %105 = stablehlo.divide %104, %cst_24 : tensor<f32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_26 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %106 = stablehlo.divide %cst_25, %cst_26 : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %108 = stablehlo.multiply %107, %103 : tensor<16x8x32xf32>
    %109 = stablehlo.dot_general %108, %98, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x8x64xf32>) -> tensor<32x64xf32>
    %110 = stablehlo.transpose %109, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %111 = stablehlo.dot_general %108, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<64x32xf32>) -> tensor<16x8x64xf32>
    %112 = stablehlo.multiply %80, %111 : tensor<16x8x64xf32>
    %113 = stablehlo.multiply %111, %97 : tensor<16x8x64xf32>
    %cst_27 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %115 = stablehlo.multiply %114, %112 : tensor<16x8x64xf32>
    %116 = stablehlo.multiply %115, %93 : tensor<16x8x64xf32>
    %117 = stablehlo.multiply %116, %91 : tensor<16x8x64xf32>
    %118 = stablehlo.add %116, %117 : tensor<16x8x64xf32>
    %cst_28 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %120 = stablehlo.multiply %119, %118 : tensor<16x8x64xf32>
    %121 = stablehlo.add %113, %120 : tensor<16x8x64xf32>
    %cst_29 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<16x8x64xf32>
    %123 = stablehlo.multiply %122, %120 : tensor<16x8x64xf32>
    %124 = stablehlo.multiply %123, %85 : tensor<16x8x64xf32>
    %125 = stablehlo.add %121, %124 : tensor<16x8x64xf32>
    %126 = sdy.sharding_constraint %125 <@mesh, [{"data"}, {}, {}]> : tensor<16x8x64xf32>
    %127 = stablehlo.dot_general %126, %78, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<16x8x32xf32>) -> tensor<64x32xf32>
    %128 = stablehlo.transpose %127, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %129 = stablehlo.dot_general %126, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x8x64xf32>, tensor<32x64xf32>) -> tensor<16x8x32xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.reduce(%129 init: %cst_30) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %131 = stablehlo.reshape %130 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %132 = stablehlo.reduce(%131 init: %cst_31) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %133 = stablehlo.multiply %72, %129 : tensor<16x8x32xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %134 = stablehlo.reduce(%133 init: %cst_32) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %135 = stablehlo.reshape %134 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %136 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<16x8x32xf32>
    %137 = stablehlo.multiply %129, %136 : tensor<16x8x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.reduce(%135 init: %cst_33) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %139 = stablehlo.multiply %64, %137 : tensor<16x8x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %140 = stablehlo.reduce(%139 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %141 = stablehlo.reshape %140 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %142 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x32xf32>
    %143 = stablehlo.multiply %137, %142 : tensor<16x8x32xf32>
    %144 = stablehlo.multiply %141, %70 : tensor<16x8x1xf32>
    %145 = stablehlo.negate %143 : tensor<16x8x32xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%145 init: %cst_35) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %147 = stablehlo.reshape %146 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %148 = stablehlo.add %108, %143 : tensor<16x8x32xf32>
    %cst_36 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %150 = stablehlo.divide %144, %149 : tensor<16x8x1xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %151 = stablehlo.reduce(%150 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x32xf32>
    %153 = stablehlo.multiply %152, %58 : tensor<16x8x32xf32>
    %154 = stablehlo.negate %153 : tensor<16x8x32xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %155 = stablehlo.reduce(%154 init: %cst_38) applies stablehlo.add across dimensions = [2] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x8xf32>
    %156 = stablehlo.reshape %155 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %157 = stablehlo.add %148, %153 : tensor<16x8x32xf32>
    %158 = stablehlo.add %147, %156 : tensor<16x8x1xf32>
    %cst_39 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<16x8x1xf32>
    %160 = stablehlo.divide %158, %159 : tensor<16x8x1xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%160 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x32xf32>
    %163 = stablehlo.add %157, %162 : tensor<16x8x32xf32>
    %164 = stablehlo.dot_general %163, %47, contracting_dims = [0, 1] x [0, 3], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<16x4x8x8xf32>) -> tensor<32x4x8xf32>
    %165 = stablehlo.transpose %164, dims = [1, 2, 0] : (tensor<32x4x8xf32>) -> tensor<4x8x32xf32>
    %166 = stablehlo.dot_general %163, %arg7, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x8x32xf32>, tensor<4x8x32xf32>) -> tensor<16x8x4x8xf32>
    %167 = stablehlo.transpose %166, dims = [0, 2, 3, 1] : (tensor<16x8x4x8xf32>) -> tensor<16x4x8x8xf32>
    %168 = stablehlo.dot_general %167, %29, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %169 = stablehlo.dot_general %167, %43, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %170 = stablehlo.transpose %169, dims = [0, 1, 3, 2] : (tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %171 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %172 = stablehlo.multiply %168, %171 : tensor<16x4x8x8xf32>
    %173 = stablehlo.multiply %172, %39 : tensor<16x4x8x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %174 = stablehlo.reduce(%173 init: %cst_41) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x8xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %175 = stablehlo.reshape %174 : (tensor<16x4x8xf32>) -> tensor<16x4x8x1xf32>
    %176 = stablehlo.negate %175 : tensor<16x4x8x1xf32>
    %177 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<16x4x8x1xf32>) -> tensor<16x4x8x8xf32>
    %178 = stablehlo.divide %168, %177 : tensor<16x4x8x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %179 = stablehlo.reduce(%176 init: %cst_42) applies stablehlo.add across dimensions = [3] : (tensor<16x4x8x1xf32>, tensor<f32>) -> tensor<16x4x8xf32>
    %180 = stablehlo.broadcast_in_dim %179, dims = [0, 1, 2] : (tensor<16x4x8xf32>) -> tensor<16x4x8x8xf32>
    %181 = stablehlo.add %178, %180 : tensor<16x4x8x8xf32>
    %182 = stablehlo.multiply %181, %39 : tensor<16x4x8x8xf32>
    %cst_43 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<16x4x8x8xf32>
    %184 = stablehlo.divide %182, %183 : tensor<16x4x8x8xf32>
    %185 = stablehlo.dot_general %184, %25, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %186 = stablehlo.dot_general %184, %27, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x4x8x8xf32>, tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %187 = stablehlo.transpose %170, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %188 = stablehlo.dot_general %187, %arg9, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %189 = stablehlo.dot_general %187, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %190 = stablehlo.transpose %189, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %191 = stablehlo.transpose %185, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %192 = stablehlo.dot_general %191, %arg6, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %193 = stablehlo.add %188, %192 : tensor<16x8x32xf32>
    %194 = stablehlo.dot_general %191, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %195 = stablehlo.transpose %194, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %196 = stablehlo.transpose %186, dims = [1, 3, 0, 2] : (tensor<16x4x8x8xf32>) -> tensor<4x8x16x8xf32>
    %197 = stablehlo.dot_general %196, %arg8, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<32x4x8xf32>) -> tensor<16x8x32xf32>
    %198 = stablehlo.add %193, %197 : tensor<16x8x32xf32>
    %199 = stablehlo.dot_general %196, %23, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x8xf32>, tensor<16x8x32xf32>) -> tensor<4x8x32xf32>
    %200 = stablehlo.transpose %199, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %201 = stablehlo.reduce(%198 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %202 = stablehlo.reshape %201 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.reduce(%202 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %204 = stablehlo.multiply %17, %198 : tensor<16x8x32xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.reduce(%204 init: %cst_46) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %206 = stablehlo.reshape %205 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %207 = stablehlo.reduce(%206 init: %cst_47) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    return %105, %203, %207, %132, %138, %128, %110, %195, %165, %200, %190 : tensor<f32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>
  }
}
