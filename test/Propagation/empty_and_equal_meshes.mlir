// Meshes as Shardy compares them. A sharding on the empty mesh (`<[]>`) fits any mesh:
// where propagation reaches its value, the value moves to the op's mesh, keeping its
// closed dims closed (%arg1: dim 1 stays whole, so under the basic strategy the add
// keeps only "p"). Two mesh symbols with the same axes and device order are one mesh:
// shardings flow between them (the multiply reads %0 on @mesh and %arg2 on @twin), and
// a value that had none takes the name of the first one met. A closed sharding on the
// empty mesh says "replicated" and stays (%arg3; the subtract then agrees on nothing).
// The program runs right.
//
// RUN: shardpy-opt %s --shardpy-propagate=strategy=basic | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}, {"q"}]>}
// CHECK-SAME:    %arg1: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}, {}]>}
// CHECK-SAME:    %arg2: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@twin, [{"p"}, {}]>}
// CHECK-SAME:    %arg3: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@none, [{}, {}]>}
// CHECK-SAME:    -> (tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}, {}]>}, tensor<8x12xf32>)
// CHECK-NEXT:    stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"p"}, {}]>]>}
// CHECK-NEXT:    stablehlo.multiply %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"p"}, {}]>]>}
// CHECK-NEXT:    stablehlo.subtract %arg2, %arg3 : tensor<8x12xf32>
sdy.mesh @none = <[]>
sdy.mesh @mesh = <["p"=2, "q"=2]>
sdy.mesh @twin = <["p"=2, "q"=2]>
func.func @main(%a: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}, {"q"}]>},
                %b: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@none, [{?}, {}]>},
                %c: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@twin, [{"p", ?}, {?}]>},
                %d: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@none, [{}, {}]>})
    -> (tensor<8x12xf32>, tensor<8x12xf32>) {
  %0 = stablehlo.add %a, %b : tensor<8x12xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8x12xf32>
  %2 = stablehlo.subtract %c, %d : tensor<8x12xf32>
  return %1, %2 : tensor<8x12xf32>, tensor<8x12xf32>
}
