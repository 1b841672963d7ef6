// insert-reshards weighs computing a windowed op on its shards (its halo exchange:
// collective_permutes) against keeping the windowed dim whole (the planner's
// all_gather), by estimated time with the shipped cpu profile (latency + bytes /
// bandwidth per collective; at 2 devices a collective_permute's latency is about
// 190 us, an all_gather's about 60 us), then by bytes.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=BYTES
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func public @main(
// Window 3 over 2 shards of 4 rows: one row from each side (2 permutes of 1 row,
// 2 x 64 B) against gathering the other shard (4 rows, 256 B). The bytes favour the
// exchange, the time the one all_gather (about 60 us against 2 x 190 us): gathered.
// (Ranked by bytes alone, BYTES, the exchange.)
// CHECK-NOT:     collective_permute
// CHECK:         %[[A:.*]] = "stablehlo.all_gather"(%arg0) {{.*}} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK:         "stablehlo.reduce_window"(%[[A]],
// Window 9: the halos are whole shards on both sides (2 permutes of 4 rows, 512 B);
// gathering the other shard moves 256 B and takes one collective: gathered, computed
// whole, sliced locally.
// CHECK-NOT:     collective_permute
// CHECK:         %[[G:.*]] = "stablehlo.all_gather"(%arg1) {{.*}} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK:         "stablehlo.reduce_window"(%[[G]],
// Window 3 over 2 shards of 128 x 1024 rows: gathering the other shard (512 KiB,
// about 0.8 ms at the profile's 0.65 GB/s) costs more than 2 permutes of one
// 4 KiB row: exchanged.
// CHECK-NOT:     all_gather
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}} : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
// CHECK:         "stablehlo.collective_permute"({{.*}}) {{.*}} : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
// CHECK:         "stablehlo.reduce_window"
// CHECK-NOT:     all_gather
// CHECK:         return

// BYTES-LABEL: func.func public @main(
// BYTES:         "stablehlo.collective_permute"({{.*}}) {{.*}} : (tensor<1x16xf32>) -> tensor<1x16xf32>
// BYTES:         "stablehlo.collective_permute"({{.*}}) {{.*}} : (tensor<1x16xf32>) -> tensor<1x16xf32>
// BYTES:         "stablehlo.reduce_window"
// BYTES:         "stablehlo.all_gather"(%arg1) {{.*}} : (tensor<4x16xf32>) -> tensor<8x16xf32>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %c: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
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
  %2 = "stablehlo.reduce_window"(%c, %zero) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<256x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<256x1024xf32>
}
