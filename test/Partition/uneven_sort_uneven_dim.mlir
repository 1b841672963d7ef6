// Sorts and an uneven dim (10 rows over "x"=4: shards of 3, the last with 1 row):
// along it, the dim's axis moves onto the 3 columns (3 over 4: shards of 1, the last
// all padding) by an all_to_all (columns padded to 4 before, the 12 gathered rows
// trimmed to 10 after, so the sort sees exactly the 10 real rows), each device sorts
// its column, and a second all_to_all puts the rows back (36 + 36 = 72 B/device,
// against 108 B for gathering the rows); along the other dim the uneven dim passes
// through: sorted on the shards, no collective.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.pad %arg0, {{.*}} high = [0, 1]{{.*}} -> tensor<3x4xf32>
// CHECK:         %[[A:.*]] = "stablehlo.all_to_all"({{.*}}split_count = 4{{.*}} : (tensor<3x4xf32>) -> tensor<12x1xf32>
// CHECK-NEXT:    %[[W:.*]] = stablehlo.slice %[[A]] [0:10, 0:1]
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.sort"(%[[W]]) <{dimension = 0 : i64
// CHECK:         stablehlo.pad %[[S]], {{.*}} high = [2, 0]
// CHECK:         %[[B:.*]] = "stablehlo.all_to_all"({{.*}} : (tensor<12x1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    stablehlo.slice %[[B]] [0:3, 0:3]
// CHECK:         "stablehlo.sort"(%arg0) <{dimension = 1 : i64
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%a: tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %c = stablehlo.compare LT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<10x3xf32>) -> tensor<10x3xf32>
  %1 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %c = stablehlo.compare GT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<10x3xf32>) -> tensor<10x3xf32>
  return %0, %1 : tensor<10x3xf32>, tensor<10x3xf32>
}
