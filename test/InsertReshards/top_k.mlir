// chlo.top_k along a dim sharded on "y" is split: no reshard, each device's top_k is
// computed on its shard and the candidates are merged in shardpy-to-local
// (test/ToLocal/top_k.mlir), so the operand keeps [{"x"}, {"y"}] and the results have
// the top-k dim whole ([{"x"}, {}]).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]] = chlo.top_k(%arg0, k = 2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    return %[[V]], %[[I]]
// CHECK-NOT:     sdy.reshard
func.func public @main(%arg0: tensor<2x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<2x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %values, %indices = chlo.top_k(%arg0, k = 2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]>} : tensor<2x64xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %values, %indices : tensor<2x2xf32>, tensor<2x2xi32>
}
