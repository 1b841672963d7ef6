// Reshards between uneven shardings.
//   %a 10x6 rows on "x" (shards of 3) to columns on "x" (shards of 2): one all_to_all;
//      the columns are padded to 8 before it, the 12 gathered rows trimmed to 10 after
//      (72 B/device).
//   %b 10 rows on "x","y" (8 shards of 2) to "x" (4 shards of 3): blocks of 2 x 2
//      rows are not shards of 3, so the dim is gathered whole (all_gather over all 8,
//      224 B/device), trimmed to 10, padded to 12 and sliced.
//   %c 7 rows on "y" (shards of 4) to "y","x" (shards of 1): 4 x 1 lines up, so each
//      device slices its block locally, no collective.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x6xf32>{{.*}}%arg1: tensor<2x4xf32>{{.*}}%arg2: tensor<4x3xf32>
// CHECK-SAME:    -> (tensor<10x2xf32>{{.*}}tensor<3x4xf32>{{.*}}tensor<1x3xf32>
// CHECK:         %[[N:.*]] = stablehlo.negate %arg0
// CHECK:         %[[P:.*]] = stablehlo.pad %[[N]], {{.*}} high = [0, 2]{{.*}} -> tensor<3x8xf32>
// CHECK:         %[[A:.*]] = "stablehlo.all_to_all"({{.*}}split_count = 4{{.*}} : (tensor<3x8xf32>) -> tensor<12x2xf32>
// CHECK:         stablehlo.slice %[[A]] [0:10, 0:2]
// CHECK:         "stablehlo.all_gather"({{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]>{{.*}} : (tensor<2x4xf32>) -> tensor<16x4xf32>
// CHECK:         stablehlo.slice %{{.*}} [0:10, 0:4]
// CHECK:         stablehlo.pad {{.*}} high = [2, 0]{{.*}} -> tensor<12x4xf32>
// CHECK:         stablehlo.dynamic_slice {{.*}} sizes = [3, 4]
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func public @main(%a: tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<10x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
                       %c: tensor<7x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<10x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<7x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) {
  %0 = stablehlo.negate %a : tensor<10x6xf32>
  %1 = stablehlo.negate %b : tensor<10x4xf32>
  %2 = stablehlo.negate %c : tensor<7x3xf32>
  return %0, %1, %2 : tensor<10x6xf32>, tensor<10x4xf32>, tensor<7x3xf32>
}
