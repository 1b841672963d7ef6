// argmax over an uneven sharded dim (10 over "y"=4): the values' padding is masked
// with the init value (-inf) and the indices' padding with the index init (0) — one
// more copy of the init pair, which never changes the result — then each device
// reduces its shard and the (value, index) pairs are all_gathered and reduced again
// (one all_gather of a 2x1x3 i32 pack: 72 B/device by the cost model, 3/4 of 96 B).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/../Partition/Inputs/ties_and_nans.py %t.npz f32:6x10
// RUN: shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<3x3xf32>
// CHECK:         %[[NINF:.*]] = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK:         %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         stablehlo.constant dense<[3, 3, 3, 1, 3, 3, 3, 1]> : tensor<8xi32>
// CHECK:         %[[V:.*]] = stablehlo.select %{{.*}}, %arg0, %{{.*}} : tensor<3x3xi1>, tensor<3x3xf32>
// CHECK:         %[[I:.*]] = stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x3xi1>, tensor<3x3xi32>
// CHECK:         stablehlo.reduce(%[[V]] init: %[[NINF]]), (%[[I]] init: %[[Z]]) across dimensions = [1]
// CHECK:         "stablehlo.all_gather"{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]>{{.*}} : (tensor<2x1x3xi32>) -> tensor<2x4x3xi32>
// CHECK:         stablehlo.reduce({{.*}}) across dimensions = [0] : (tensor<4x3xf32>, tensor<4x3xi32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %iota = stablehlo.iota dim = 1 : tensor<6x10xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %ninf), (%iota init: %zero) across dimensions = [1] : (tensor<6x10xf32>, tensor<6x10xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
   reducer(%va: tensor<f32>, %vb: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
    %2 = stablehlo.compare GT, %va, %vb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %va, %va, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %va, %vb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %va, %vb : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<6xi32>
}
