// Cumulative reductions along a sharded dim (what JAX emits for cumsum, cumprod,
// cummax, cummin: reduce_window with window = dim size and padding dim-1 before it,
// or after it for reverse=True / the gradient): not a halo of the whole array but a
// local scan of each shard, one all_gather of the shards' totals (one element per
// row and shard), and each element combined with the totals of the shards before it
// (after it, in reverse).
// The same plan by bytes (%bytes_only) and by the shipped cpu profile's time. Until
// the scan's own all_gather was costed as what it is (LocalOp.exchange's collectives by
// kind: an all_gather over the 4 shards, ~122 us), it was costed as a halo's
// collective_permute (~193 us), and the profile gathered the whole operand instead
// (1.5 KiB, computed whole, sliced: what XLA does; bench/compare_xla.py's
// cumsum_mesh2x4 ran 1.05x XLA's step).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["data"=2, "model"=4]>

// CHECK-LABEL: func.func public @main(
// cumsum: local scan (window 16, padding 15 before), the last column's totals
// gathered over "model", the sum of those of lower shard index added.
// CHECK:         %[[SCAN:.*]] = "stablehlo.reduce_window"(%arg0, %{{.*}}) <{{.*}}padding = dense<{{\[\[}}0, 0], [15, 0]]> : tensor<2x2xi64>{{.*}}window_dimensions = array<i64: 1, 16>
// CHECK:         %[[LAST:.*]] = stablehlo.slice %[[SCAN]] [0:8, 15:16]
// CHECK-NEXT:    %[[TOTALS:.*]] = "stablehlo.all_gather"(%[[LAST]]) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x1xf32>) -> tensor<8x4xf32>
// CHECK:         stablehlo.compare LT,
// CHECK:         %[[BEFORE:.*]] = stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK:         %[[CUMSUM:.*]] = stablehlo.add %{{.*}}, %[[SCAN]] : tensor<8x16xf32>

// reverse cumsum: padding after, the first column's totals, the shards after it.
// CHECK:         %[[RSCAN:.*]] = "stablehlo.reduce_window"(%arg0, %{{.*}}) <{{.*}}padding = dense<{{\[\[}}0, 0], [0, 15]]> : tensor<2x2xi64>
// CHECK:         %[[FIRST:.*]] = stablehlo.slice %[[RSCAN]] [0:8, 0:1]
// CHECK-NEXT:    "stablehlo.all_gather"(%[[FIRST]])
// CHECK:         stablehlo.compare GT,
// CHECK:         %[[RCUMSUM:.*]] = stablehlo.add %{{.*}}, %[[RSCAN]] : tensor<8x16xf32>

// cummax and cumprod: the same with their own reducer and identity (-inf, 1).
// CHECK:         "stablehlo.all_gather"
// CHECK:         stablehlo.constant dense<0xFF800000>
// CHECK:         applies stablehlo.maximum across dimensions = [1]
// CHECK:         %[[CUMMAX:.*]] = stablehlo.maximum %{{.*}}, %{{.*}} : tensor<8x16xf32>
// CHECK:         "stablehlo.all_gather"
// CHECK:         stablehlo.constant dense<1.000000e+00>
// CHECK:         applies stablehlo.multiply across dimensions = [1]
// CHECK:         %[[CUMPROD:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<8x16xf32>
// CHECK-NOT:     collective_permute
// CHECK-NOT:     tensor<8x64xf32>
// CHECK:         return %[[CUMSUM]], %[[RCUMSUM]], %[[CUMMAX]], %[[CUMPROD]]
func.func public @main(%x: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
    -> (tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
        tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
        tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
        tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %zero = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
  %1 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [0, 63]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2 = "stablehlo.reduce_window"(%x, %ninf) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %3 = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.multiply %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
  return %0, %1, %2, %3 : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}
