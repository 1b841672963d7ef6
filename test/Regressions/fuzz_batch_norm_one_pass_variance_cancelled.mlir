// Found by test/fuzz (`run_fuzz.py --seed 9990000 --disable known`: seed 9990121), not
// minimized (smaller programs place the batch norms otherwise and pass). Was an
// accuracy bug, fixed in the commit that added this test: shardpy writes
// batch_norm_training out for a sharded batch (gspmd/batch_norm.py), its variance as
// E[x * x] - mean * mean, the one-pass form XLA's expander uses. Here x = tanh(1.5) +
// i / 24 has a mean ten times its spread, the partial sums are split across devices,
// and the difference cancelled: the batch_norm_grad result (out0) was 1.2e-4 from the
// float64 result where the one-device program is 5e-6 from it (beyond float32
// rounding; the same program in f64 partitions to within 2e-11, so nothing else
// differs). The variance is now summed around the mean (two passes).
// RUN: shardpy-run %s --check --pass-pipeline='builtin.module(shardpy-import,shardpy-propagate,shardpy-choose-shardings,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on},shardpy-combine-collectives)' | FileCheck %s
// CHECK: out0: max abs error {{.*}} ok
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}, %arg1: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg3: tensor<3xf32>) -> (tensor<24x3x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}, {?}]>}, tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<24x3x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {"x", ?}]>}) {
    %v1 = stablehlo.constant dense<[[6, -1, 0, -3, 3, -2, 7, 3, 2, 3, 0, -4, -5, 0, -3, 2, -7, -6, 6, 5, -8, -6, 0, -3, -8, -7, 0, 4, -5, 7, 3, -2, 1, 2, 2, 8, 3, -8, -1, 5, -6, 4, 0, -6, 5, 2, -2, 5, 7, 2, 7, -7, -2, -5, 3, -3, 3, -3, -3, 4, -1, -5, 1, -5], [8, -7, 7, -2, 0, 7, 4, 7, -2, 3, 0, -7, -1, 0, 1, 1, 8, 2, 6, 4, 2, 5, -4, 7, -6, 3, -2, 0, -4, 3, -4, 2, -1, -1, 3, 1, 6, 2, 7, 3, 2, -5, 1, 5, -5, -2, -5, -5, 0, 2, -3, -8, 5, -4, -4, 3, 1, -8, 0, 0, 8, 6, 6, 1]]> : tensor<2x64xi32>
    %v7:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = true}> ({
      ^bb0(%v2: tensor<f32>, %v3: tensor<f32>, %v4: tensor<f32>, %v5: tensor<f32>):
        %v6 = stablehlo.compare LT, %v2, %v3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %v6 : tensor<i1>
    }) : (tensor<32xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
    %v8 = stablehlo.dot_general %v7#1, %v7#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32xf32>, tensor<32xf32>) -> tensor<f32>
    %v9 = stablehlo.transpose %v1, dims = [1, 0] : (tensor<2x64xi32>) -> tensor<64x2xi32>
    %v10 = stablehlo.constant dense<-3> : tensor<i32>
    %v11 = stablehlo.constant dense<5> : tensor<i32>
    %v12 = stablehlo.clamp %v10, %v9, %v11 : (tensor<i32>, tensor<64x2xi32>, tensor<i32>) -> tensor<64x2xi32>
    %v13 = stablehlo.reverse %v1, dims = [1] : tensor<2x64xi32>
    %v14 = stablehlo.constant dense<1.500000e+00> : tensor<24x3x12xf32>
    %v15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %v16 = stablehlo.reduce(%arg1 init: %v15) applies stablehlo.add across dimensions = [0] : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    %v17 = stablehlo.constant dense<3> : tensor<i32>
    %v18 = stablehlo.pad %v13, %v17, low = [0, -1], high = [0, 9], interior = [0, 0] : (tensor<2x64xi32>, tensor<i32>) -> tensor<2x72xi32>
    %v19 = stablehlo.broadcast_in_dim %v8, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %v20 = sdy.sharding_constraint %v19 <@mesh, [{"y"}]> : tensor<16xf32>
    %v21 = stablehlo.iota dim = 0 : tensor<16xi32>
    %v22 = stablehlo.constant dense<13> : tensor<16xi32>
    %v23 = stablehlo.compare EQ, %v21, %v22, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %v24 = stablehlo.constant dense<-1.000000e+00> : tensor<16xf32>
    %v25 = stablehlo.sqrt %v24 : tensor<16xf32>
    %v26 = stablehlo.select %v23, %v25, %v20 : tensor<16xi1>, tensor<16xf32>
    %v27 = sdy.sharding_constraint %v26 <@mesh, [{"x"}]> : tensor<16xf32>
    %v28 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %v29 = stablehlo.reduce(%v27 init: %v28) applies stablehlo.minimum across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %v30 = stablehlo.tanh %v14 : tensor<24x3x12xf32>
    %v31 = stablehlo.iota dim = 0 : tensor<24x3x12xi32>
    %v32 = stablehlo.convert %v31 : (tensor<24x3x12xi32>) -> tensor<24x3x12xf32>
    %v35 = stablehlo.constant dense<4.166666667e-02> : tensor<24x3x12xf32>
    %v33 = stablehlo.multiply %v32, %v35 : tensor<24x3x12xf32>
    %v34 = stablehlo.add %v30, %v33 : tensor<24x3x12xf32>
    %v36:3 = "stablehlo.batch_norm_training"(%v34, %arg2, %arg3) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<24x3x12xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<24x3x12xf32>, tensor<3xf32>, tensor<3xf32>)
    %v37 = stablehlo.tanh %v30 : tensor<24x3x12xf32>
    %v38 = stablehlo.iota dim = 0 : tensor<24x3x12xi32>
    %v39 = stablehlo.convert %v38 : (tensor<24x3x12xi32>) -> tensor<24x3x12xf32>
    %v42 = stablehlo.constant dense<4.166666667e-02> : tensor<24x3x12xf32>
    %v40 = stablehlo.multiply %v39, %v42 : tensor<24x3x12xf32>
    %v43 = stablehlo.multiply %v40, %v40 : tensor<24x3x12xf32>
    %v41 = stablehlo.add %v37, %v43 : tensor<24x3x12xf32>
    %v44:3 = "stablehlo.batch_norm_grad"(%v34, %arg2, %v36#1, %v36#2, %v41) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<24x3x12xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<24x3x12xf32>) -> (tensor<24x3x12xf32>, tensor<3xf32>, tensor<3xf32>)
    %v45 = "stablehlo.batch_norm_inference"(%v34, %arg2, %arg3, %v36#1, %v36#2) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<24x3x12xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<24x3x12xf32>
    return %v44#0, %v44#1, %v44#2, %v45 : tensor<24x3x12xf32>, tensor<3xf32>, tensor<3xf32>, tensor<24x3x12xf32>
  }
}
