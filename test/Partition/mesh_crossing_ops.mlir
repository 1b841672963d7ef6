// Ops whose values lie on different meshes are computed on one of them and the other
// values moved (the reshard planner's cross-mesh plans), never mixed: an op runs on
// its first annotated result's mesh, else on its first annotated operand's; operands
// on another mesh cross onto it before the op, results on another mesh cross from it
// after the op.
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(shardpy-import,shardpy-propagate,shardpy-insert-reshards)' | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// Operands on two meshes, no result sharding: computed on @a (%p's), %q moved there.
// CHECK-LABEL: func.func public @main(
// CHECK:         %[[Q:.*]] = sdy.reshard %arg1 <@a, [{"x"}, {}]>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %arg0, %[[Q]] {sdy.sharding = #sdy.sharding_per_value<[<@a, [{"x"}, {}]>]>}
// Results on two meshes: computed on @a (the first result's), the second moved to @c.
// CHECK:         %[[SORTED:.*]]:2 = "stablehlo.sort"(%[[S]], %[[S]])
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@a, [{"x"}, {}]>, <@a, [{"x"}, {}]>]>}
// CHECK-NEXT:    %[[MOVED:.*]] = sdy.reshard %[[SORTED]]#1 <@c, [{"p"}, {}]>
// CHECK-NEXT:    return %[[SORTED]]#0, %[[MOVED]]
sdy.mesh @a = <["x"=2, "y"=4]>
sdy.mesh @b = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @c = <["p"=2, "q"=4]>
func.func public @main(%p: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}, {}]>},
                       %q: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@b, [{"x"}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.add %p, %q : tensor<8x16xf32>
  %1:2 = "stablehlo.sort"(%0, %0) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>, %w: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@a, [{"x"}, {}]>, <@c, [{"p"}, {}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %1#0, %1#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
