// batch_norm_training, batch_norm_inference and batch_norm_grad (what PyTorch/XLA lowers
// BatchNorm and LayerNorm to), with the batch sharded on "y" and the features
// (feature_index = 1) on "x". Inference keeps every dim sharded as it stands. Training
// and grad are written out by shardpy-import as the reductions and elementwise math
// they stand for (gspmd/batch_norm.py, as XLA's batch-norm expander does): each device
// sums its rows and an all_reduce over "y" finishes the batch statistics, so nothing is
// gathered (before: the batch was gathered whole first). Four all_reduces: sum and sum
// of squares (training), sum of dy and of dy * (x - mean) (grad).
//
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK-NOT: all_gather
// CHECK: call @shardpy_batch_norm_training_0(%arg0, %arg1, %arg2) : (tensor<4x4x6xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x4x6xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, {{.*}}) {{.*}} : (tensor<4x4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x4x6xf32>
// CHECK: call @shardpy_batch_norm_grad_0({{.*}}) : (tensor<4x4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x4x6xf32>) -> (tensor<4x4x6xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-LABEL: func.func private @shardpy_batch_norm_training_0(
// CHECK-COUNT-2: "stablehlo.all_reduce"({{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]>
// CHECK-LABEL: func.func private @shardpy_batch_norm_grad_0(
// CHECK-COUNT-2: "stablehlo.all_reduce"({{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]>
// CHECK-NOT: all_gather
//
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func public @main(%x: tensor<8x16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {}]>},
                       %s: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %o: tensor<16xf32>, %g: tensor<8x16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {}]>})
    -> (tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16x6xf32>, tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>) {
  %y, %m, %v = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>)
  %i = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x6xf32>
  %gx, %gs, %go = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %g) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16x6xf32>) -> (tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>)
  return %y, %m, %v, %i, %gx, %gs, %go : tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16x6xf32>, tensor<8x16x6xf32>, tensor<16xf32>, tensor<16xf32>
}
