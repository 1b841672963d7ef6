// A slice whose result (4 rows) is sharded over "x"=8 (propagated from the operand,
// 16 rows on "x"): the slice is computed on the largest sub-axis that divides its
// windowed dim, "x":(1)4 (the operand gathered over "x":(4)2, 192 B/device; one halo
// collective_permute, 288 B), and the result re-laid out to 4 rows over 8 shards of 1
// through the whole dim (an all_gather over "x":(1)4, 288 B): 768 B/device, against
// 1344 B for gathering the operand over all of "x" (before this, shardpy changed the
// result's sharding to "x":(1)4 with a warning).
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    -> (tensor<1x24xf32>
// CHECK:         "stablehlo.all_gather"(%arg0){{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]>{{.*}} : (tensor<2x24xf32>) -> tensor<4x24xf32>
// CHECK:         "stablehlo.collective_permute"
// CHECK:         "stablehlo.all_gather"{{.*}}replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]>{{.*}} : (tensor<1x24xf32>) -> tensor<4x24xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=8]>

func.func public @main(%a0: tensor<16x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x24xf32>) {
  %0 = stablehlo.slice %a0 [6:16:3, 0:24] : (tensor<16x24xf32>) -> tensor<4x24xf32>
  return %0 : tensor<4x24xf32>
}
