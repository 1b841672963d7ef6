// Windowed ops along an uneven dim (10 rows over "x"=4): a halo exchange moves whole
// blocks of a dim its shards divide, so here the windowed dim is gathered whole (its
// padding sliced off: the ops see exactly 10 rows), computed, and each result padded
// back to whole shards and sliced. reverse, slice, pad and reduce_window share one
// all_gather of the operand (108 B/device); the concatenate, whose rows are not a
// neighbour exchange, instead moves "x" onto the 3 columns (3 over 4, padded) with an
// all_to_all per operand and one back (132 B): 240 B/device. Uneven pass-through dims
// of these ops stay sharded (test/python/lowering/test_padding.py, family "windowed").
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x3xf32>
// CHECK:         %[[G:.*]] = "stablehlo.all_gather"(%arg0){{.*}} : (tensor<3x3xf32>) -> tensor<12x3xf32>
// CHECK-NEXT:    %[[W:.*]] = stablehlo.slice %[[G]] [0:10, 0:3]
// CHECK-NEXT:    stablehlo.reverse %[[W]], dims = [0] : tensor<10x3xf32>
// CHECK:         stablehlo.slice %[[W]] [2:8, 0:3]
// CHECK:         stablehlo.pad %[[W]], {{.*}} low = [1, 0], high = [2, 0]
// CHECK-COUNT-2: "stablehlo.all_to_all"{{.*}} : (tensor<3x4xf32>) -> tensor<12x1xf32>
// CHECK:         stablehlo.concatenate {{.*}} : (tensor<10x1xf32>, tensor<10x1xf32>) -> tensor<20x1xf32>
// CHECK:         "stablehlo.all_to_all"{{.*}} : (tensor<20x1xf32>) -> tensor<5x4xf32>
// CHECK:         "stablehlo.reduce_window"(%[[W]],
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4]>
func.func public @main(%a: tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<13x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<20x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.reverse %a, dims = [0] : tensor<10x3xf32>
  %1 = stablehlo.slice %a [2:8, 0:3] : (tensor<10x3xf32>) -> tensor<6x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.pad %a, %z, low = [1, 0], high = [2, 0], interior = [0, 0] : (tensor<10x3xf32>, tensor<f32>) -> tensor<13x3xf32>
  %3 = stablehlo.concatenate %a, %0, dim = 0 : (tensor<10x3xf32>, tensor<10x3xf32>) -> tensor<20x3xf32>
  %4 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 10, 1>, padding = dense<[[9, 0], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<10x3xf32>, tensor<f32>) -> tensor<10x3xf32>
  return %0, %1, %2, %3, %4 : tensor<10x3xf32>, tensor<6x3xf32>, tensor<13x3xf32>, tensor<20x3xf32>, tensor<10x3xf32>
}
