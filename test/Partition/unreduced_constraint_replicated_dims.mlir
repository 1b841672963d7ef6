// A sharding_constraint that only adds unreduced axes, `<@mesh_x2, [{}, {}],
// unreduced={"x"}>`, on a dot whose contraction is sharded on "x" (what JAX emits for
// `out_sharding=P(None, None, unreduced={'x'})`): propagation gives the dot the
// constraint's unreduced axis (as native sdy-propagation-pipeline does), so the partial
// sums stay partial until the unannotated return wants the whole value: exactly one
// all_reduce, over [[0, 1]]; no all_reduce right after the dot, no replicated ->
// unreduced reshard (and its "last resort" warning, see bug_replicated_to_unreduced.mlir),
// no all_reduce over singleton groups. (Regression test: this used to give all three.)
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s --check-prefix=PROP
// RUN: shardpy-opt %s --shardpy-partition --verify-diagnostics | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

// PROP:        stablehlo.dot_general {{.*}}{sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2, [{}, {}], unreduced={"x"}>]>}

// CHECK-COUNT-1: "stablehlo.all_reduce"{{.*}}replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>
// CHECK-NOT:     "stablehlo.all_reduce"
func.func public @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {"x"}]>},
                       %w: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>}) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh_x2, [{}, {}], unreduced={"x"}> : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
