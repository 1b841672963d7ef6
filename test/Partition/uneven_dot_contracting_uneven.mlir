// A dot contracting an uneven sharded dim (10 over "x"=4): both operands' padding is
// made zero (garbage x 0 could be NaN, so both), each device multiplies its blocks,
// and one all_reduce sums the partial products (60 B; 90 B/device by the cost model).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x3xf32>{{.*}}%arg1: tensor<3x5xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
// CHECK:         stablehlo.constant dense<[3, 3, 3, 1]> : tensor<4xi32>
// CHECK:         stablehlo.iota dim = 1 : tensor<3x3xi32>
// CHECK:         %[[L:.*]] = stablehlo.select %{{.*}}, %arg0, %{{.*}} : tensor<3x3xi1>, tensor<3x3xf32>
// CHECK:         stablehlo.iota dim = 0 : tensor<3x5xi32>
// CHECK:         %[[R:.*]] = stablehlo.select %{{.*}}, %arg1, %{{.*}} : tensor<3x5xi1>, tensor<3x5xf32>
// CHECK:         %[[P:.*]] = stablehlo.dot_general %[[L]], %[[R]], contracting_dims = [1] x [0]
// CHECK:         "stablehlo.all_reduce"(%[[P]]){{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%a: tensor<3x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %b: tensor<10x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x10xf32>, tensor<10x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
