// A gather from a table sharded on the indexed dim ("y") with indices sharded on their
// batch dim ("x"): neither is moved; each device gathers from its rows (masking the
// others, test/ToLocal/gather.mlir) and the result is a partial sum (unreduced={"y"})
// finished by one sdy.all_reduce.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK:         %[[I:.*]] = stablehlo.reshape %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<4x3xi32>) -> tensor<4x3x1xi32>
// CHECK-NEXT:    %[[G:.*]] = "stablehlo.gather"(%arg0, %[[I]]) {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}], unreduced={"y"}>]>}
// CHECK-NEXT:    %[[R:.*]] = sdy.all_reduce {"y"} %[[G]] out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<4x3x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<3> : tensor<4x3xi32>
  %c_0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<-5> : tensor<4x3xi32>
  %0 = stablehlo.multiply %arg1, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x3xi32>
  %1 = stablehlo.add %0, %c_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x3xi32>
  %2 = stablehlo.reshape %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<4x3xi32>) -> tensor<4x3x1xi32>
  %3 = "stablehlo.gather"(%arg0, %2) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<8x4xf32>, tensor<4x3x1xi32>) -> tensor<4x3x4xf32>
  return %3 : tensor<4x3x4xf32>
}
