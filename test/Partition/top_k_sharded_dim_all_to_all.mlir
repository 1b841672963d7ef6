// chlo.top_k along a sharded dim where gathering the candidates (k = 8 of 16 per
// device) would move more than the operand itself: the top-k dim's "y" moves onto the
// rows (one all_to_all, 384 B per device), each device takes the top 8 of whole rows,
// and the results are all_gathered back to the rows' sharding (384 B), against 1.5 KiB
// for the candidates. Ties, NaNs, +-0, +-inf included.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/Inputs/ties_and_nans.py %t.npz f32:16x64
// RUN: %bytes_only shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[IN:.*]] = "stablehlo.all_to_all"(%arg0) <{{.*}}concat_dimension = 1 : i64{{.*}}split_dimension = 0 : i64}> : (tensor<8x16xf32>) -> tensor<2x64xf32>
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]] = chlo.top_k(%[[IN]], k = 8) : tensor<2x64xf32> -> (tensor<2x8xf32>, tensor<2x8xi32>)
// CHECK-DAG:     "stablehlo.all_gather"(%[[V]]) <{all_gather_dim = 0 : i64, {{.*}} : (tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-DAG:     "stablehlo.all_gather"(%[[I]]) <{all_gather_dim = 0 : i64, {{.*}} : (tensor<2x8xi32>) -> tensor<8x8xi32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
func.func public @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<16x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %v, %i = chlo.top_k(%a, k = 8) : tensor<16x64xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)
  return %v, %i : tensor<16x8xf32>, tensor<16x8xi32>
}
