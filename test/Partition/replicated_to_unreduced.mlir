// A replicated value returned through a result annotated unreduced={"x"}: the value
// stays on the first device along "x" and is zero on the others
// (sdy.replicated_to_unreduced, a local select), so the partial values sum to it.
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK-NOT: warning: resharding
// CHECK:     out0: max abs error {{.*}} ok
// CHECK:     check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

func.func public @main(%a: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {}], unreduced={"x"}>}) {
  %0 = stablehlo.negate %a : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
