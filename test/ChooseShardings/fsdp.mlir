// FSDP: the batch is sharded on "data", and so is every weight, along its features.
// Propagation let the feature-sharded scale pull the activations onto "data" along
// their features (%0, %1), so each matmul would multiply feature shards of the whole
// batch into full-size partial sums and reduce-scatter them. Chosen for the whole
// program by estimated time, the activations are batch-sharded instead: each weight
// is all-gathered (small) and no activation moves, as XLA partitions FSDP. (512 rows:
// at 32, insert-reshards' own plans for the propagated shardings, computing each op
// in its result's layout, already moved less than gathering the weights.)
// RUN: shardpy-opt %s --shardpy-choose-shardings | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS
// A program of more ops than max-ops keeps propagation's shardings:
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(shardpy-choose-shardings{max-ops=4})' | FileCheck %s --check-prefix=LIMIT
// LIMIT:      stablehlo.add {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>}
// LIMIT-NEXT: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>}
// RUN: shardpy-run %s --check --pass-pipeline='builtin.module(shardpy-import,shardpy-propagate,shardpy-choose-shardings{max-ops=4},shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local,shardpy-combine-collectives)' | FileCheck %s --check-prefix=EXEC

sdy.mesh @mesh = <["data"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT:    stablehlo.add {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT:    stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT:    stablehlo.tanh {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT:    stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
func.func public @main(%arg0: tensor<512x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                       %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>},
                       %arg2: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                       %arg3: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>})
    -> tensor<512x64xf32> {
  %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<64xf32>) -> tensor<512x64xf32>
  %1 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x64xf32>
  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x256xf32>) -> tensor<512x256xf32>
  %3 = stablehlo.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x256xf32>
  %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x256xf32>, tensor<256x64xf32>) -> tensor<512x64xf32>
  return %4 : tensor<512x64xf32>
}
