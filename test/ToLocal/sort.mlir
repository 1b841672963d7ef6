// A sort on local blocks whose sorted dim is whole: the 2-D operand's all_to_all brings
// whole rows (2x4 -> 1x8), the local sort sorts them and an all_to_all takes them back;
// the 1-D operand is all_gathered (4 -> 8), sorted on every device and each device
// keeps its part (the all_slice's dynamic_slice).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[A:.*]] = "stablehlo.all_to_all"(%arg0) {{.*}} : (tensor<2x4xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.sort"(%[[A]]) <{dimension = 1 : i64, is_stable = true}>
// CHECK:         }) : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %[[B:.*]] = "stablehlo.all_to_all"(%[[S]]) {{.*}} : (tensor<1x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[G:.*]] = "stablehlo.all_gather"(%arg1) {{.*}} : (tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[S1:.*]] = "stablehlo.sort"(%[[G]]) <{dimension = 0 : i64, is_stable = true}>
// CHECK:         %[[MINE:.*]] = stablehlo.dynamic_slice %[[S1]], %{{.*}}, sizes = [4] : (tensor<8xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[B]], %[[MINE]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = sdy.all_to_all [{"y"}: 1->0] %arg0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<4x8xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %6 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %6 : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = sdy.all_to_all [{"y"}: 0->1] %1 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
  %3 = sdy.all_gather [{"y"}] %arg1 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %4 = "stablehlo.sort"(%3) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %6 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %6 : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %5 = sdy.all_slice [{"y"}] %4 out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
  return %2, %5 : tensor<4x8xf32>, tensor<8xf32>
}
