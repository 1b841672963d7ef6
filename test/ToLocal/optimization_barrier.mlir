// stablehlo.optimization_barrier: operands and results take the local shapes of their
// own shardings (both 2x4 here, on different layouts), and the collectives around it
// stay on their side of it.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[B:.*]] = stablehlo.dynamic_slice %arg1, %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[OB:.*]]:2 = stablehlo.optimization_barrier %arg0, %[[B]] : tensor<2x4xf32>, tensor<2x4xf32>
// CHECK-NEXT:    %[[P:.*]] = "stablehlo.collective_permute"(%[[OB]]#1)
// CHECK-NEXT:    stablehlo.add %[[OB]]#0, %[[P]] : tensor<2x4xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[OB]]#1 : tensor<2x4xf32>
// CHECK-NEXT:    "stablehlo.all_gather"(%[[N]]) <{all_gather_dim = 0 : i64, {{.*}} : (tensor<2x4xf32>) -> tensor<4x4xf32>
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = sdy.all_slice [{}, {"x"}] %arg1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<4x8xf32>
  %1:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {"x"}]>]>} %arg0, %0 : tensor<4x8xf32>, tensor<4x8xf32>
  %2 = sdy.collective_permute %1#1 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
  %3 = stablehlo.add %1#0, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %4 = stablehlo.negate %1#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<4x8xf32>
  %5 = sdy.all_gather [{"y"}, {}] %4 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x8xf32>
  return %3, %5 : tensor<4x8xf32>, tensor<4x8xf32>
}
