// A loop carry (the while's result and its block arguments: one sharding) is chosen
// like any value. Propagation left the carry, and the matmul feeding it and the one in
// the body, sharded along the features like the weight; each of the three body
// iterations then multiplies feature shards of the whole batch into full-size partial
// sums. Chosen for the whole program, with the body's cost counted three times (the
// trip count read from the condition), everything moves to the batch together and the
// weight is all-gathered instead. (512 rows: at 32, insert-reshards' own plans for the
// propagated shardings came within 10% of the choice, which then keeps them.)
// RUN: shardpy-opt %s --shardpy-choose-shardings | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["data"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[D:.*]] = stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK:         stablehlo.while(%{{.*}} = %[[D]], {{.*}} attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>, <@mesh, []>]>}
// CHECK:         stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT:    stablehlo.tanh {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
func.func public @main(%arg0: tensor<512x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                       %arg1: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<512x64xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x64xf32>) -> tensor<512x64xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %0, %i = %c) : tensor<512x64xf32>, tensor<i32>
   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>, <@mesh, []>]>}
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %t = stablehlo.dot_general %iterArg, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x64xf32>) -> tensor<512x64xf32>
    %u = stablehlo.tanh %t {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x64xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %u, %n : tensor<512x64xf32>, tensor<i32>
  }
  return %1#0 : tensor<512x64xf32>
}
