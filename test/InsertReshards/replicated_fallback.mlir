// Ops that shardpy-to-local cannot compute on shards (here rng_bit_generator, whose
// bits depend on the whole output shape) are computed whole on every device: every
// operand is resharded to replicated, the result is replicated and then resharded to
// its propagated sharding. Correct, never wrong, but it costs communication, so each
// such op name gets one warning at the op. (fft, computed replicated here once, is now
// computed on its batch shards: test/Partition/fft_linalg_batch_sharded.mlir.)
// RUN: shardpy-opt %s --shardpy-insert-reshards --verify-diagnostics | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-DAG: warning: 'stablehlo.rng_bit_generator' is computed replicated
// EXEC-DAG: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %{{.*}}, %[[S:.*]] = stablehlo.rng_bit_generator %arg0, {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}]>, <@mesh_x2_y4, [{}, {}]>]>}
// CHECK-NEXT:    %[[S2:.*]] = sdy.reshard %[[S]] <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xui32>
// CHECK-NEXT:    return %[[S2]]
func.func public @main(%state: tensor<2xui64>)
    -> (tensor<8x16xui32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) {
  // expected-warning@+1 {{'stablehlo.rng_bit_generator' is computed replicated: its bits depend on the whole output shape, so every device generates all of them and keeps its shard}}
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}]>, <@mesh_x2_y4, [{"x"}, {}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  return %0#1 : tensor<8x16xui32>
}
