// Reductions over an uneven sharded dim (10 over "y"=4: shards of 3, the last holds 1
// real element): each device masks its padding with the reduce's init value (0 for
// the sum, -inf for the max: a select on iota < real count, the count read from a
// per-device table), reduces its shard, and one all_reduce per result finishes it
// (12 B partial per device; 18 B/device each by the cost model, 36 B in all).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x3xf32>
// CHECK:         %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         stablehlo.constant dense<[3, 3, 3, 1, 3, 3, 3, 1]> : tensor<8xi32>
// CHECK:         %[[REAL:.*]] = stablehlo.compare LT, %{{.*}}, %{{.*}} : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
// CHECK:         %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<f32>) -> tensor<3x3xf32>
// CHECK:         %[[M:.*]] = stablehlo.select %[[REAL]], %arg0, %[[FILL]]
// CHECK:         stablehlo.reduce(%[[M]] init: %[[ZERO]]) applies stablehlo.add
// CHECK:         "stablehlo.all_reduce"{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]>
// CHECK:         stablehlo.select {{.*}}, %arg0,
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.maximum
// CHECK:         "stablehlo.all_reduce"{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]>
// CHECK:           stablehlo.maximum
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
        tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
  return %0, %1 : tensor<6xf32>, tensor<6xf32>
}
