// A custom_call computed on shards under its own sdy.sharding_rule is emitted as it is,
// on local types: @mhlo.topk takes whole rows (the all_to_all moved "y" onto the batch
// dim: 2x4 -> 1x8) and its results are all_gathered back to [{"x"}, {}]; the rule
// attribute stays, the sharding attribute goes.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = "stablehlo.all_to_all"(%arg0) {{.*}} : (tensor<2x4xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %[[K:.*]]:2 = stablehlo.custom_call @mhlo.topk(%[[A]]) {{{.*}}sdy.sharding_rule = {{.*}}} : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)
// CHECK-NEXT:    %[[I:.*]] = "stablehlo.all_gather"(%[[K]]#1) {{.*}} : (tensor<1x2xi32>) -> tensor<2x2xi32>
// CHECK-NEXT:    %[[V:.*]] = "stablehlo.all_gather"(%[[K]]#0) {{.*}} : (tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    return %[[V]], %[[I]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.all_to_all [{"y"}: 1->0] %arg0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<4x8xf32>
  %1:2 = stablehlo.custom_call @mhlo.topk(%0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{"x", "y"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k], [i, k]) {i=4, j=8, k=2} need_replication={j, k}>} : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  %2 = sdy.all_gather [{"y"}, {}] %1#1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x2xi32>
  %3 = sdy.all_gather [{"y"}, {}] %1#0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x2xf32>
  return %3, %2 : tensor<4x2xf32>, tensor<4x2xi32>
}
