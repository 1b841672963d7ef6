// batch_norm_training, batch_norm_inference and batch_norm_grad (what PyTorch/XLA lowers
// BatchNorm and LayerNorm to) have rules (issue 16; before, none: computed replicated).
// The feature dim (feature_index = 1, sharded on "x") passes through to scale, offset
// and the statistics; training and grad need the other dims whole (their statistics
// reduce over them: the batch, sharded on "y", is gathered first), inference keeps every
// dim sharded. Batch-dim sharding of training and grad (statistics summed across
// shards) is not done yet: see python/shardpy/ops/batch_norm.py.
//
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: %[[X:.*]] = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0
// CHECK: "stablehlo.batch_norm_training"(%[[X]], %arg1, %arg2) {{.*}} : (tensor<8x4x6xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<8x4x6xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, {{.*}}) {{.*}} : (tensor<4x4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x4x6xf32>
// CHECK: "stablehlo.batch_norm_grad"({{.*}}) {{.*}} -> (tensor<8x4x6xf32>, tensor<4xf32>, tensor<4xf32>)
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
