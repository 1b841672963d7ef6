// A maximal sharding (GSPMD `{maximal device=k}`: the whole value on device k) is
// kept by propagation, as in Shardy: nothing moves between the maximal mesh and @mesh
// (the add takes its layout from its other operand and its result, never from %arg1;
// %1 and its constraint stay maximal). The partitioner then computes it replicated,
// with one warning per function: the value is whole on every device, and a result
// that was maximal is returned whole.
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// RUN: shardpy-opt %s --shardpy-propagate 2>&1 | FileCheck %s --check-prefix=PROP
// CHECK: warning: a maximal sharding (the value on one device) is computed replicated
// CHECK-NOT: warning
// CHECK: check: PASS
// PROP-NOT: warning
// PROP: func.func public @main(%arg0: {{.*}}[{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_2, []>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_2, []>})
// PROP-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// PROP-NEXT: stablehlo.multiply %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_2, []>]>}
// PROP-NEXT: sdy.sharding_constraint %1 <@maximal_mesh_2, []>

sdy.mesh @mesh = <["x"=4]>
sdy.mesh @maximal_mesh_2 = <[], device_ids=[2]>
func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_2, []>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_2, []>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.multiply %arg1, %arg1 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@maximal_mesh_2, []> : tensor<8x8xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
