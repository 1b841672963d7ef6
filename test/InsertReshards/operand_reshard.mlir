// Operands whose sharding differs from the factor shardings the op's rule needs get an
// sdy.reshard in front; factor shardings come from the op's result where it has them.
// add: both operands move to the result's [{"x"}, {"y"}]. dot_general: of the two
// placements (keep the result's sharding, or keep the operands'), moving the rhs to
// [{"y"}, {}] and contracting on "y" (a partial result reduce-scattered into
// [{"x"}, {"y"}]) moves fewer bytes than gathering the lhs' "y" and moving the rhs to
// [{}, {"y"}], so the dot's result is unreduced on "y" and resharded after it.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {{.*}}[{"x"}, {}]
// CHECK-SAME:    %arg1: tensor<8x16xf32> {{.*}}[{}, {"y"}]
// CHECK-SAME:    %arg2: tensor<16x32xf32> {{.*}}[{}, {"x"}]
// CHECK-NEXT:    %[[A:.*]] = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[B:.*]] = sdy.reshard %arg1 <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[A]], %[[B]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[RHS:.*]] = sdy.reshard %arg2 <@mesh_x2_y4, [{"y"}, {}]> : tensor<16x32xf32>
// CHECK-NEXT:    %[[DOT:.*]] = stablehlo.dot_general %[[ADD]], %[[RHS]], contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[OUT:.*]] = sdy.reshard %[[DOT]] <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x32xf32>
// CHECK-NEXT:    return %[[OUT]]
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
