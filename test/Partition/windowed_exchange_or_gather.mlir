// insert-reshards weighs computing a windowed op on its shards (the halo exchange's
// bytes, each collective_permute counted whole) against keeping the windowed dim
// whole (the planner's all_gather), and takes the cheaper; on a tie, the gather.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func public @main(
// Window 3 over 2 shards of 4 rows: one row from each side (2 permutes of 1 row,
// 2 x 64 B) beats gathering the other shard (4 rows, 256 B).
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}} : (tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}} : (tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK:         "stablehlo.reduce_window"
// Window 9: the halos are whole shards on both sides (2 permutes of 4 rows, 512 B);
// gathering the other shard moves 256 B: gathered, computed whole, sliced locally.
// CHECK-NOT:     collective_permute
// CHECK:         %[[G:.*]] = "stablehlo.all_gather"(%arg1) {{.*}} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK:         "stablehlo.reduce_window"(%[[G]],
// CHECK-NOT:     collective_permute
// CHECK:         return
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %zero) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %1 = "stablehlo.reduce_window"(%b, %zero) <{padding = dense<[[4, 4], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 9, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
