// Issue 21: an optimization_barrier onto a mesh with the same axes and the devices in
// reverse order (and @main's result on it). Device d holds rows of "r" coordinate d/2
// under @plain but (5-d)/2 under @reversed: the planner moves them with one
// sdy.collective_permute between the meshes (sdy allows a new device order there).
// Ranked by bytes (%bytes_only): with the shipped cpu profile a value this small is
// gathered on one mesh and sliced on the other instead (an all_gather's latency is
// below a collective_permute's); this pins the permute between meshes.
// RUN: %bytes_only shardpy-opt %s --pass-pipeline='builtin.module(shardpy-import,shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives)' | FileCheck %s --check-prefix=SDY
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @plain = <["r"=3, "c"=2]>
sdy.mesh @reversed = <["r"=3, "c"=2], device_ids=[5, 4, 3, 2, 1, 0]>

// SDY:         %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@reversed, [{"r"}, {}]> : tensor<12x4xf32>
// SDY-NEXT:    stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@reversed, [{"r"}, {}]>]>} %[[P]]

// CHECK:       "stablehlo.collective_permute"(%arg0) <{{{.*}}source_target_pairs = dense<{{\[\[}}0, 5], [1, 4], [3, 3], [2, 2], [4, 1], [5, 0]]> : tensor<6x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func public @main(%v: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@plain, [{"r"}, {}]>})
    -> (tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@reversed, [{"r"}, {}]>}) {
  %0 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@reversed, [{"r"}, {}]>]>} %v : tensor<12x4xf32>
  %1 = stablehlo.tanh %0 : tensor<12x4xf32>
  return %1 : tensor<12x4xf32>
}
