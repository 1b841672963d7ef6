// Issue 20: a call whose result lives on a second, smaller mesh. Rows 4..7 live on
// devices 4..7 under @m8 ("d" major over 8 devices) but on device 1 under @m2: the
// value is moved, not relabelled. Both layouts have 2 shards of dim 0, so the move is
// one collective_permute (device 0 keeps its block, device 4 sends its to device 1);
// between meshes with different axes it is an sdy.reshard that shardpy-to-local lowers.
// Ranked by bytes (%bytes_only): with the shipped cpu profile a value this small is
// gathered on one mesh and sliced on the other instead (an all_gather's latency is
// below a collective_permute's); this pins the permute between meshes.
// RUN: %bytes_only shardpy-opt %s --pass-pipeline='builtin.module(shardpy-import,shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives)' | FileCheck %s --check-prefix=SDY
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @m8 = <["d"=2, "t"=4]>
sdy.mesh @m2 = <["d"=2]>

// SDY-LABEL: func.func public @main(
// SDY:         %[[C:.*]] = call @body(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@m8, [{"d"}, {}]>]>}
// SDY-NEXT:    %[[R:.*]] = sdy.reshard %[[C]] <@m2, [{"d"}, {}]> : tensor<8x16xf32>
// SDY-NEXT:    return %[[R]]

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[C:.*]] = call @body(%arg0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[P:.*]] = "stablehlo.collective_permute"(%[[C]]) <{{{.*}}source_target_pairs = dense<{{\[\[}}0, 0], [4, 1]]> : tensor<2x2xi64>}> : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[P]]
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m8, [{"d"}, {}]>}) -> tensor<8x16xf32> {
  %0 = call @body(%a) {sdy.sharding = #sdy.sharding_per_value<[<@m2, [{"d"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func private @body(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.sine %x : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
