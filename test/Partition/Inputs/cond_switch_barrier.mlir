module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<f32> {sdy.sharding = #sdy.sharding<@empty_mesh, []>}, %arg1: tensor<i32> {sdy.sharding = #sdy.sharding<@empty_mesh, []>}, %arg2: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg3: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.compare GT, %arg0, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = stablehlo.convert %0 : (tensor<i1>) -> tensor<i32>
    %2 = "stablehlo.case"(%1) ({
      %11 = stablehlo.subtract %arg2, %arg3 : tensor<16x32xf32>
      stablehlo.return %11 : tensor<16x32xf32>
    }, {
      %11 = stablehlo.sine %arg2 : tensor<16x32xf32>
      %12 = stablehlo.multiply %11, %arg3 : tensor<16x32xf32>
      stablehlo.return %12 : tensor<16x32xf32>
    }) : (tensor<i32>) -> tensor<16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %3 = stablehlo.clamp %c, %arg1, %c_0 : tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
      %12 = stablehlo.multiply %arg2, %11 : tensor<16x32xf32>
      stablehlo.return %12 : tensor<16x32xf32>
    }, {
      %11 = stablehlo.exponential %arg2 : tensor<16x32xf32>
      stablehlo.return %11 : tensor<16x32xf32>
    }, {
      %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
      %12 = stablehlo.add %arg2, %11 : tensor<16x32xf32>
      stablehlo.return %12 : tensor<16x32xf32>
    }) : (tensor<i32>) -> tensor<16x32xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %6 = stablehlo.multiply %2, %5 : tensor<16x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %8 = stablehlo.add %4, %7 : tensor<16x32xf32>
    %9:2 = stablehlo.optimization_barrier %6, %8 : tensor<16x32xf32>, tensor<16x32xf32>
    %10 = stablehlo.add %9#0, %9#1 : tensor<16x32xf32>
    return %10 : tensor<16x32xf32>
  }
}
