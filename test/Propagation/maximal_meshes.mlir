// Shardings on a maximal mesh (`<[], device_ids=[k]>`: the value on device k) are kept
// by propagation, as in Shardy: nothing moves between such a value and its neighbours.
// The multiply on device 1 keeps its sharding; the negate of its result takes none from
// it (it gets "x" from the function result instead); the add mixing a maximal operand
// and a sharded one gets nothing (its tensors are on two meshes, as in Shardy). The
// partitioner then computes the maximal values replicated (one warning) and the
// program runs right.
//
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: warning: a maximal sharding (the value on one device) is computed replicated
// EXEC: check: PASS

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@on_one, []>}
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@on_one, []>]>}
// CHECK-NEXT:    stablehlo.negate %[[M]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT:    stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
sdy.mesh @mesh = <["x"=4]>
sdy.mesh @on_one = <[], device_ids=[1]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@on_one, []>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<8x8xf32>) {
  %0 = stablehlo.multiply %b, %b {sdy.sharding = #sdy.sharding_per_value<[<@on_one, []>]>} : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
