// A dot contracting an uneven dim (10 over "x"=4, both operands' padding zeroed)
// whose result wants its columns (10, uneven) on "x": the partial products are
// padded from 10 to 12 columns and reduce_scattered into shards of 3 (216 B/device:
// 3/4 of the 6x12 f32 partial), no all_reduce.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    -> (tensor<6x3xf32>
// CHECK:         %[[P:.*]] = stablehlo.dot_general {{.*}} : (tensor<6x3xf32>, tensor<3x10xf32>) -> tensor<6x10xf32>
// CHECK:         %[[Q:.*]] = stablehlo.pad %[[P]], {{.*}} high = [0, 2]{{.*}} -> tensor<6x12xf32>
// CHECK-NEXT:    "stablehlo.reduce_scatter"(%[[Q]]){{.*}}scatter_dimension = 1
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%a: tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %b: tensor<10x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<6x10xf32>, tensor<10x10xf32>) -> tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}
