// A bf16 batch_norm_training and batch_norm_grad with the batch sharded (fuzz seed 6428
// with --enable bf16; this is a smaller form of it). Written out for a sharded batch
// (gspmd/batch_norm.py), the variance is E[x * x] - mean * mean: each device's partial
// sums were rounded to bf16 for the all_reduce, and for feature 0 (8, 8.25, 8.5, 8.75
// over and over: variance 0.078) the rounded E[x * x] cancelled against mean * mean to
// 0.5 (the seed: a negative variance, NaN through rsqrt) where the one-device program,
// which XLA:CPU computes in f32, is right. XLA's own partitioner gave the NaN too.
// Narrow floats are now written out in f32 between converts: the all_reduces carry f32
// per-feature sums (8 bytes per feature more) and the results equal the one-device
// program's. Before the fix: out0, out2, out3 and out4 MISMATCH.
//
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// CHECK-LABEL: func.func private @shardpy_batch_norm_training_0(%arg0: tensor<30x2xbf16>
// CHECK: stablehlo.convert %arg0 : (tensor<30x2xbf16>) -> tensor<30x2xf32>
// CHECK: "stablehlo.all_reduce"
// CHECK: }) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: "stablehlo.all_reduce"
// CHECK: }) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: return {{.*}} : tensor<30x2xbf16>, tensor<2xbf16>, tensor<2xbf16>
// CHECK-LABEL: func.func private @shardpy_batch_norm_grad_0(
// CHECK: "stablehlo.all_reduce"
// CHECK: }) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: "stablehlo.all_reduce"
// CHECK: }) : (tensor<2xf32>) -> tensor<2xf32>
//
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: MISMATCH
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=8]>
func.func public @main(%arg0: tensor<240x2xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %s: tensor<2xbf16>, %o: tensor<2xbf16>,
                       %dy: tensor<240x2xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>) {
  // x[:, 0] cycles 8, 8.25, 8.5, 8.75 (mean 8.375, variance 0.078): E[x * x] (~70.2)
  // in bf16 is 0.25 apart from its neighbours, and cancels against mean * mean.
  %t = stablehlo.constant dense<8.0> : tensor<240x1xbf16>
  %i = stablehlo.iota dim = 0 : tensor<240x1xi32>
  %four = stablehlo.constant dense<4> : tensor<240x1xi32>
  %r = stablehlo.remainder %i, %four : tensor<240x1xi32>
  %rf = stablehlo.convert %r : (tensor<240x1xi32>) -> tensor<240x1xbf16>
  %q = stablehlo.constant dense<0.25> : tensor<240x1xbf16>
  %step = stablehlo.multiply %rf, %q : tensor<240x1xbf16>
  %c0 = stablehlo.add %t, %step : tensor<240x1xbf16>
  %c1 = stablehlo.slice %arg0 [0:240, 1:2] : (tensor<240x2xbf16>) -> tensor<240x1xbf16>
  %x = stablehlo.concatenate %c0, %c1, dim = 1 : (tensor<240x1xbf16>, tensor<240x1xbf16>) -> tensor<240x2xbf16>
  %y, %mean, %var = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64}
      : (tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>) -> (tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  %dx, %ds, %do = "stablehlo.batch_norm_grad"(%x, %s, %mean, %var, %dy) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64}
      : (tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<240x2xbf16>) -> (tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  return %y, %mean, %var, %dx, %ds, %do : tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<240x2xbf16>, tensor<2xbf16>, tensor<2xbf16>
}
