// Sorts and an uneven dim (10 rows over "x"=4): along it, the dim is gathered whole
// (its padding sliced off: 10 rows sorted, not 12 with garbage), sorted, padded back
// to 12 and each device takes its 3 rows (108 B/device); along the other dim the
// uneven dim passes through: sorted on the shards, no collective.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[G:.*]] = "stablehlo.all_gather"(%arg0){{.*}} : (tensor<3x3xf32>) -> tensor<12x3xf32>
// CHECK:         %[[W:.*]] = stablehlo.slice %[[G]] [0:10, 0:3]
// CHECK:         %[[S:.*]] = "stablehlo.sort"(%[[W]]) <{dimension = 0 : i64
// CHECK:         stablehlo.pad %[[S]], {{.*}} high = [2, 0]
// CHECK:         stablehlo.dynamic_slice {{.*}} sizes = [3, 3]
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
