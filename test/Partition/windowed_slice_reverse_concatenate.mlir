// slice, reverse and concatenate (of slices of one array: a roll) on a sharded dim
// keep it sharded; devices exchange only what their shard of the result needs, with
// stablehlo.collective_permute (no all_gather).
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func public @main(

// slice [4:20] of 32 (8 per device) into 16 (4 per device): shard k of the result is
// operand positions [4k+4, 4k+8): devices 0 and 1 hold theirs already (in shards 0
// and 1), device 2 needs columns [4:8) of shard 1, device 3 columns [0:4) of shard 2:
// one collective_permute, then each device cuts its 4 columns at its offset.
// CHECK:         %[[S:.*]] = "stablehlo.collective_permute"(%arg0) {{.*}}source_target_pairs = dense<{{\[\[}}1, 2], [2, 3]]> : tensor<2x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK:         %[[KEEP:.*]] = stablehlo.select %{{.*}}, %arg0, %[[S]]
// CHECK:         %[[SLICED:.*]] = stablehlo.dynamic_slice %[[KEEP]], {{.*}} sizes = [2, 4]

// reverse: shard k of the result is shard 3-k reversed: one collective_permute
// swapping mirrored devices, then a local reverse.
// CHECK:         %[[R:.*]] = "stablehlo.collective_permute"(%arg1) {{.*}}source_target_pairs = dense<{{\[\[}}3, 0], [2, 1], [1, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[REV:.*]] = stablehlo.reverse %[[R]], dims = [1] : tensor<2x8xf32>

// A roll by 2 (concatenate of x[2:] and x[:2]) is computed from x's shards, not from
// the slices (30 and 2 long, which do not shard evenly): shard k of the result is
// x[8k+2, 8k+10) (mod 32): its own columns [2:8) plus the first 2 columns of shard
// k+1 (a halo from the right neighbour), device 3 those of shard 0: one rotation, one
// collective_permute wrapping around and one concatenate, as XLA does (no select).
// CHECK:         %[[OWN:.*]] = stablehlo.slice %arg2 [0:2, 2:8]
// CHECK:         %[[H:.*]] = stablehlo.slice %arg2 [0:2, 0:2]
// CHECK-NEXT:    %[[HALO:.*]] = "stablehlo.collective_permute"(%[[H]]) {{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[ROLL:.*]] = stablehlo.concatenate %[[OWN]], %[[HALO]], dim = 1
// CHECK-NOT:     stablehlo.select
// CHECK-NOT:     stablehlo.all_gather
// CHECK:         return %[[SLICED]], %[[REV]], %[[ROLL]]
func.func public @main(%a: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %b: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %c: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.slice %a [0:2, 4:20] : (tensor<2x32xf32>) -> tensor<2x16xf32>
  %1 = stablehlo.reverse %b, dims = [1] : tensor<2x32xf32>
  %2 = stablehlo.slice %c [0:2, 2:32] : (tensor<2x32xf32>) -> tensor<2x30xf32>
  %3 = stablehlo.slice %c [0:2, 0:2] : (tensor<2x32xf32>) -> tensor<2x2xf32>
  %4 = stablehlo.concatenate %2, %3, dim = 1 : (tensor<2x30xf32>, tensor<2x2xf32>) -> tensor<2x32xf32>
  return %0, %1, %4 : tensor<2x16xf32>, tensor<2x32xf32>, tensor<2x32xf32>
}
