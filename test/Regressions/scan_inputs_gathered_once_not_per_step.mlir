// Found by a new-user battery: gradient accumulation with lax.scan over 4 microbatches
// (a 2-layer MLP; x and y P("data", "model"), w1 P(None, "model"), w2 P("model", None))
// ran ~1.3x jax.jit's step. The slice of each step's microbatch from the "data"-sharded
// inputs was computed as a masked slice and an all_reduce over "data" inside the loop,
// four times; XLA gathers the inputs over "data" once, before the loop. Both plans were
// estimated alike for one run of the slice, but a reshard of a value the loop body reads
// unchanged (a scan's inputs) is hoisted out of the loop by XLA and paid once. Fixed in
// the commit that added this test: plan costs divide such an operand's reshard by the
// loop's trip count (choice_calls.hoisted_trips), and both slices now gather their
// operand, which XLA hoists. (This is jax.jit(f).lower(...).as_text() of the program.)
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR-LABEL: func.func private @dynamic_index_in_dim(
// IR: "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]>
// IR-NOT: all_reduce
// IR-LABEL: func.func private @dynamic_index_in_dim_0(
// IR: "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]>
// IR-NOT: [0, 4], [1, 5]
// CHECK: check: PASS

module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<128x256xf32> {jax.result_info = "result[0][0]"}, tensor<256x64xf32> {jax.result_info = "result[0][1]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.reshape %arg2 : (tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %1 = stablehlo.reshape %arg3 : (tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x256xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5:9 = stablehlo.while(%iterArg = %0, %iterArg_6 = %1, %iterArg_7 = %arg0, %iterArg_8 = %arg1, %iterArg_9 = %c, %iterArg_10 = %2, %iterArg_11 = %3, %iterArg_12 = %cst_1, %iterArg_13 = %4) : tensor<4x16x128xf32>, tensor<4x16x64xf32>, tensor<128x256xf32>, tensor<256x64xf32>, tensor<i32>, tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<4xf32>
    cond {
      %c_14 = stablehlo.constant dense<4> : tensor<i32>
      %11 = stablehlo.compare LT, %iterArg_9, %c_14, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    } do {
      %11 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_9) : (tensor<4x16x128xf32>, tensor<i32>) -> tensor<16x128xf32>
      %12 = func.call @dynamic_index_in_dim_0(%iterArg_6, %iterArg_9) : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<16x64xf32>
      %13:4 = func.call @closed_call(%iterArg_7, %iterArg_8, %iterArg_10, %iterArg_11, %iterArg_12, %11, %12) : (tensor<128x256xf32>, tensor<256x64xf32>, tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<16x128xf32>, tensor<16x64xf32>) -> (tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<f32>)
      %14 = func.call @dynamic_update_index_in_dim(%iterArg_13, %13#3, %iterArg_9) : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
      %c_14 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg_9, %c_14 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_6, %iterArg_7, %iterArg_8, %15, %13#0, %13#1, %13#2, %14 : tensor<4x16x128xf32>, tensor<4x16x64xf32>, tensor<128x256xf32>, tensor<256x64xf32>, tensor<i32>, tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<4xf32>
    }
    %cst_3 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<128x256xf32>
    %7 = stablehlo.divide %5#5, %6 : tensor<128x256xf32>
    %cst_4 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %9 = stablehlo.divide %5#6, %8 : tensor<256x64xf32>
    %cst_5 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %10 = stablehlo.divide %5#7, %cst_5 : tensor<f32>
    return %7, %9, %10, %5#8 : tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x16x128xf32>, %arg1: tensor<i32>) -> tensor<16x128xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 16, 128] : (tensor<4x16x128xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x128xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x128xf32>) -> tensor<16x128xf32>
    return %1 : tensor<16x128xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<4x16x64xf32>, %arg1: tensor<i32>) -> tensor<16x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 16, 64] : (tensor<4x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
  func.func private @closed_call(%arg0: tensor<128x256xf32>, %arg1: tensor<256x64xf32>, %arg2: tensor<128x256xf32>, %arg3: tensor<256x64xf32>, %arg4: tensor<f32>, %arg5: tensor<16x128xf32>, %arg6: tensor<16x64xf32>) -> (tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<f32>) {
    %0 = stablehlo.dot_general %arg5, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
    %1 = call @relu(%0) : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xi1>
    %4 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    %5 = stablehlo.subtract %4, %arg6 : tensor<16x64xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x64xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %10 = stablehlo.divide %9, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %11 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %13 = stablehlo.multiply %12, %8 : tensor<16x64xf32>
    %14 = stablehlo.dot_general %13, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x256xf32>) -> tensor<64x256xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0] : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %16 = stablehlo.dot_general %13, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<256x64xf32>) -> tensor<16x256xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %18 = stablehlo.select %3, %16, %17 : tensor<16x256xi1>, tensor<16x256xf32>
    %19 = stablehlo.dot_general %18, %arg5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<16x128xf32>) -> tensor<256x128xf32>
    %20 = stablehlo.transpose %19, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %21 = stablehlo.add %arg2, %20 : tensor<128x256xf32>
    %22 = stablehlo.add %arg3, %15 : tensor<256x64xf32>
    %23 = stablehlo.convert %arg4 : tensor<f32>
    %24 = stablehlo.add %23, %10 : tensor<f32>
    return %21, %22, %24, %10 : tensor<128x256xf32>, tensor<256x64xf32>, tensor<f32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<16x256xf32>) -> tensor<16x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x256xf32>
    return %1 : tensor<16x256xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
