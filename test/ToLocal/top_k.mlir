// chlo.top_k along a dim sharded on "y" (64 over 4 devices, k = 2): each device takes
// the top 2 of its 16, makes their indices global (plus its shard's offset 16y, from a
// partition_id-indexed table), the candidates (values bitcast to i32 and stacked on the
// indices) are all_gathered over "y" and a stable sort by value, greater first, then
// the first 2 is the result.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[V:.*]], %[[I:.*]] = chlo.top_k(%arg0, k = 2) : tensor<1x16xf32> -> (tensor<1x2xf32>, tensor<1x2xi32>)
// CHECK:         stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK:         %[[GI:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<1x2xi32>
// CHECK-NEXT:    %[[VB:.*]] = stablehlo.bitcast_convert %[[V]] : (tensor<1x2xf32>) -> tensor<1x2xi32>
// CHECK:         %[[PACK:.*]] = stablehlo.concatenate {{.*}} -> tensor<2x1x2xi32>
// CHECK-NEXT:    %[[ALL:.*]] = "stablehlo.all_gather"(%[[PACK]]) <{all_gather_dim = 2 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>{{.*}} : (tensor<2x1x2xi32>) -> tensor<2x1x8xi32>
// CHECK:         %[[S:.*]]:2 = "stablehlo.sort"(%{{.*}}, %{{.*}}) <{dimension = 1 : i64, is_stable = true}>
// CHECK:           stablehlo.compare GT, %{{.*}}, %{{.*}}, TOTALORDER
// CHECK:         %[[TV:.*]] = stablehlo.slice %[[S]]#0 [0:1, 0:2] : (tensor<1x8xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:    %[[TI:.*]] = stablehlo.slice %[[S]]#1 [0:1, 0:2] : (tensor<1x8xi32>) -> tensor<1x2xi32>
// CHECK-NEXT:    return %[[TV]], %[[TI]]
func.func public @main(%arg0: tensor<2x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<2x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %values, %indices = chlo.top_k(%arg0, k = 2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]>} : tensor<2x64xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %values, %indices : tensor<2x2xf32>, tensor<2x2xi32>
}
