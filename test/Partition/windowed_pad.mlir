// pad on a sharded dim keeps it sharded: each device builds its shard of the result
// from a window of the operand (halo.py), fetched from the neighbours with
// stablehlo.collective_permute, positions outside the operand taking the padding value.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// 16 -> 24 (low 4, high 4) on 4 devices: shard k of the result is positions
// [6k-4, 6k+2) of the operand. Two rounds: the first piece of shard k comes from shard
// b(k) = floor((6k-4)/4) = -1, 0, 2, 3 (only device 1 receives: [[0, 1]]), the second
// from shard b(k)+1 (device 2 receives from 3); the rest is local. Each moves 2
// columns, not a whole shard.
// CHECK-LABEL: func.func public @main(
// CHECK:         %[[A:.*]] = stablehlo.slice %arg0 [0:8, 2:4]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[A]]) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:         %[[B:.*]] = stablehlo.slice %arg0 [0:8, 0:2]
// CHECK-NEXT:    "stablehlo.collective_permute"(%[[B]]) {{.*}}source_target_pairs = dense<{{\[\[}}3, 2]]> : tensor<1x2xi64>}> : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:         stablehlo.dynamic_slice
// The padding value 1.5 where a window leaves the operand:
// CHECK:         stablehlo.select
// CHECK-NOT:     stablehlo.all_gather
// CHECK:         return {{.*}} : tensor<8x6xf32>

// Interior padding 1 (8 -> 15 + high 1 = 16): shard k of the result holds operand
// elements [2k, 2k+2), already on device k: no communication at all.
// CHECK-NOT:     collective_permute
// CHECK-NOT:     all_gather
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %one = stablehlo.constant dense<1.5> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %a, %one, low = [0, 4], high = [0, 4], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x24xf32>
  %1 = stablehlo.pad %b, %zero, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<8x24xf32>, tensor<16x8xf32>
}
