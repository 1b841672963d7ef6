// A custom_call with its own sdy.sharding_rule is computed on shards as the rule says:
// the batch factor i stays sharded, the need-replication factor j (the top-k dim of
// @mhlo.topk here) is never sharded, so its "y" moves onto i (both results keep [{"x",
// "y"}, {}] and are resharded to where their users want them). A sharded reduction
// factor (a partial sum) is in test/Partition/custom_call_rules.mlir.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"x", "y"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[K:.*]]:2 = stablehlo.custom_call @mhlo.topk(%[[A]]) {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{"x", "y"}, {}]>]>
// CHECK-NEXT:    %[[I:.*]] = sdy.reshard %[[K]]#1 <@mesh, [{"x"}, {}]> : tensor<4x2xi32>
// CHECK-NEXT:    %[[V:.*]] = sdy.reshard %[[K]]#0 <@mesh, [{"x"}, {}]> : tensor<4x2xf32>
// CHECK-NEXT:    return %[[V]], %[[I]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k], [i, k]) {i=4, j=8, k=2} need_replication={j, k}>} : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %0#0, %0#1 : tensor<4x2xf32>, tensor<4x2xi32>
}
