// func.return operands are resharded to @main's result shardings: the first result
// moves from [{"x"}, {}] to [{}, {"y"}]; the second, computed partial on "y", is
// all-reduced and its "x" dim kept as the result wants; the third is unannotated, so it
// is returned whole (replicated).
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>}
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %arg1, %arg2, {{.*}}[{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[R0:.*]] = sdy.reshard %[[N]] <@mesh_x2_y4, [{}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[R1:.*]] = sdy.all_reduce {"y"} %[[D]] out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x32xf32>
// CHECK-NEXT:    %[[R2:.*]] = sdy.reshard %[[N]] <@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>},
        tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
        tensor<8x16xf32>) {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0, %1, %0 : tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>
}
