// sdy.sharding_constraint becomes an sdy.reshard to the constrained sharding (lowered
// to collectives later); no constraint is left. Ops after it see the new sharding.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[C:.*]] = sdy.reshard %arg0 <@mesh_x2_y4, [{}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>}
// CHECK-NEXT:    return %[[N]]
// CHECK-NOT:   sdy.sharding_constraint
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) {
  %0 = sdy.sharding_constraint %a <@mesh_x2_y4, [{}, {"y"}]> : tensor<8x16xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
