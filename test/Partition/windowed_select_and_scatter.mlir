// select_and_scatter (the gradient of a max pool) with its windowed dims sharded like
// its source (the pooled cotangent): each device takes every window touching its
// shard — the operand rows those windows cover and their source values, from its
// neighbours — scatters locally and keeps its own rows. Operand positions outside
// the array are filled with -inf, which a GE select never prefers (as XLA's
// partitioner does); windows outside the source scatter 0.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// 3-wide windows, stride 2, padding (0, 1) (JAX's "SAME" for 16 rows): shard k holds
// rows [4k, 4k+4) and windows [2k, 2k+2) of the source; windows 2k-1 .. 2k+1 touch
// its rows, which read rows [4k-2, 4k+5): two rows from the left neighbour and one
// from the right; the source row of window 2k-1 from the left neighbour.
// CHECK:         stablehlo.constant dense<0xFF800000>
// CHECK:         %[[L:.*]] = stablehlo.slice %arg0 [2:4, 0:8]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[L]]) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK:         %[[R:.*]] = stablehlo.slice %arg0 [0:1, 0:8]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[R]]) {{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK:         %[[SL:.*]] = stablehlo.slice %arg1 [1:2, 0:8]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[SL]]) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK:         %[[S:.*]] = "stablehlo.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>}>
// CHECK:         }) : (tensor<7x8xf32>, tensor<3x8xf32>, tensor<f32>) -> tensor<7x8xf32>
// CHECK-NEXT:    %[[GRAD:.*]] = stablehlo.slice %[[S]] [2:6, 0:8]

// 2x2 windows, stride 2 (the convnet's pooling): every window inside a shard,
// nothing moves.
// CHECK-NOT:     collective_permute
// CHECK:         %[[POOL:.*]] = "stablehlo.select_and_scatter"(%arg2, %arg3, %{{.*}})
// CHECK:         }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NOT:     all_gather
// CHECK:         return %[[GRAD]], %[[POOL]]
func.func public @main(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %dy: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %x2: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %dy2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %dy, %zero) <{padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<8x8xf32>, tensor<f32>) -> tensor<16x8xf32>
  %1 = "stablehlo.select_and_scatter"(%x2, %dy2, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<8x4xf32>, tensor<f32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}
