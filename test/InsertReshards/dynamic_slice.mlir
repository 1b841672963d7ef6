// A dynamic_slice of one row along a sharded dim: the operand is not gathered; each
// device slices from its own block where the row is there, zero elsewhere
// (test/ToLocal/dynamic_slice.mlir), so the result is a partial sum (unreduced={"x"})
// finished by one sdy.all_reduce.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK:         %[[S:.*]] = stablehlo.dynamic_slice %arg0, %{{.*}}, %{{.*}}, sizes = [1, 4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>}
// CHECK-NEXT:    %[[R:.*]] = sdy.all_reduce {"x"} %[[S]] out_sharding=<@mesh, [{}, {}]> : tensor<1x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i32>) -> tensor<1x4xf32> {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %c_0 = stablehlo.constant dense<-2> : tensor<i32>
  %0 = stablehlo.multiply %arg1, %c : tensor<i32>
  %1 = stablehlo.add %0, %c_0 : tensor<i32>
  %c_1 = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.dynamic_slice %arg0, %1, %c_1, sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
}
