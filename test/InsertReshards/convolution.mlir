// convolution: a sharded spatial dim stays sharded (halos of kernel-size - 1 rows are
// exchanged in shardpy-to-local, test/ToLocal/convolution.mlir); sharded input features
// (the contracting dim, with the kernel's input features on the same axis) leave a
// partial sum (unreduced={"x"}) finished by an sdy.all_reduce. No operand is gathered.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.reshard
// CHECK:         %[[C0:.*]] = stablehlo.convolution(%arg0, %arg1) {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>}
// CHECK-NEXT:    %[[C1:.*]] = stablehlo.convolution(%arg2, %arg3) {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}], unreduced={"x"}>]>}
// CHECK-NEXT:    %[[R:.*]] = sdy.all_reduce {"x"} %[[C1]] out_sharding=<@mesh, [{}, {}, {}]> : tensor<2x16x8xf32>
// CHECK-NEXT:    return %[[C0]], %[[R]]
func.func public @main(%arg0: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}, %arg1: tensor<3x4x8xf32>, %arg2: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>}, %arg3: tensor<3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) -> (tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}, tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  %1 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  return %0, %1 : tensor<2x16x8xf32>, tensor<2x16x8xf32>
}
