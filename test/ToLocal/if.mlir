// stablehlo.if: its branches are lowered in place (the else branch's all_slice becomes
// its local dynamic_slice there, indexed by the partition id computed before the if)
// and the if's result type shrinks to the local shape (2x4) that both branches return;
// the all_gather after it becomes a stablehlo.all_gather.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// RUN: shardpy-run %s --check --seed 2 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.partition_id
// CHECK:         %[[IF:.*]] = "stablehlo.if"(%arg0) ({
// CHECK-NEXT:      %[[SIN:.*]] = stablehlo.sine %arg1 : tensor<2x4xf32>
// CHECK-NEXT:      stablehlo.return %[[SIN]] : tensor<2x4xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[COS:.*]] = stablehlo.cosine %arg2 : tensor<4x4xf32>
// CHECK:           %[[DS:.*]] = stablehlo.dynamic_slice %[[COS]], %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:      stablehlo.return %[[DS]] : tensor<2x4xf32>
// CHECK-NEXT:    }) : (tensor<i1>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[G:.*]] = "stablehlo.all_gather"(%[[IF]]) <{all_gather_dim = 1 : i64, {{.*}} : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    return %[[G]] : tensor<2x8xf32>
func.func public @main(%arg0: tensor<i1>, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = "stablehlo.if"(%arg0) ({
    %2 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
    stablehlo.return %2 : tensor<4x8xf32>
  }, {
    %2 = stablehlo.cosine %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x8xf32>
    %3 = sdy.all_slice [{"x"}, {}] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
    stablehlo.return %3 : tensor<4x8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<i1>) -> tensor<4x8xf32>
  %1 = sdy.all_gather [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
