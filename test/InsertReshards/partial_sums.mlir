// Partial sums stay partial through linear ops: add and subtract of equally partial
// values, negate, transpose and reshape carry unreduced={"y"} from the two sharded-
// contraction dots to the end, where one sdy.all_reduce finishes them (the result is
// wanted whole), instead of one all_reduce per dot.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.all_reduce
// CHECK:         %[[D0:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}}[{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[D1:.*]] = stablehlo.dot_general %arg2, %arg1, {{.*}}[{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[D0]], %[[D1]] {{.*}}[{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[SUB:.*]] = stablehlo.subtract %[[ADD]], %[[D0]] {{.*}}[{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %[[SUB]] {{.*}}[{"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[T:.*]] = stablehlo.transpose %[[NEG]], dims = [1, 0] {{.*}}[{}, {"x"}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %[[T]] {{.*}}[{}, {"x"}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[SUM:.*]] = sdy.all_reduce {"y"} %[[R]] out_sharding=<@mesh_x2_y4, [{}, {"x"}, {}]> : tensor<32x2x4xf32>
// CHECK-NEXT:    return %[[SUM]]
// CHECK-NOT:   sdy.all_reduce
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<32x2x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}, {}]>}) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x32xf32>
  %3 = stablehlo.subtract %2, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x32xf32>
  %4 = stablehlo.negate %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x32xf32>
  %5 = stablehlo.transpose %4, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}], unreduced={"y"}>]>} : (tensor<8x32xf32>) -> tensor<32x8xf32>
  %6 = stablehlo.reshape %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}, {}], unreduced={"y"}>]>} : (tensor<32x8xf32>) -> tensor<32x2x4xf32>
  return %6 : tensor<32x2x4xf32>
}
