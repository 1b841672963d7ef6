// Uneven dims stay sharded: 10 rows over "x"=4 are shards of 3 (3, 3, 3, 1 real rows,
// XLA's padded layout); elementwise ops compute on the padded shards as they are (the
// padding holds garbage that never reaches a real element). No collectives.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x3xf32>
// CHECK-SAME:    -> (tensor<3x3xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
// CHECK:         stablehlo.add %arg0, %arg1 : tensor<3x3xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%a: tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.add %a, %b : tensor<10x3xf32>
  %1 = stablehlo.exponential %0 : tensor<10x3xf32>
  %2 = stablehlo.divide %1, %b : tensor<10x3xf32>
  return %2 : tensor<10x3xf32>
}
