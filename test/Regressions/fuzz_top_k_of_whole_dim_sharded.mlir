// Found by test/fuzz (issue 6 ops), minimized.
// Was a bug (error on a valid program): chlo.top_k with k equal to the size of the
// last dim. The rule treated that dim as pass-through (it keeps its size), so
// propagation sharded it like the operand's, and the local top_k asked for 8 of the 1
// element each device held: "operand's last dimension must be at least 8". The last
// dim is the one selected along (its values are reordered): whole and blocked, at any k.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=8]>

func.func public @main(%arg0: tensor<8xf32>)
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xi32>) {
  %v:2 = chlo.top_k(%arg0, k = 8) : tensor<8xf32> -> (tensor<8xf32>, tensor<8xi32>)
  return %v#0, %v#1 : tensor<8xf32>, tensor<8xi32>
}
