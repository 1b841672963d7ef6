// rng_bit_generator with its output sharded: the bits are a function of the state and
// of the whole output shape (StableHLO leaves how the algorithm uses the shape to the
// implementation), so no device can make only its part of the global random array.
// Each device generates the whole array from the replicated state and keeps its shard
// (a local dynamic_slice): the same bits as the unpartitioned program, no collective,
// and a warning that says so. The new state stays replicated.
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: warning: 'stablehlo.rng_bit_generator' is computed replicated: its bits depend on the whole output shape, so every device generates all of them and keeps its shard
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK: warning: 'stablehlo.rng_bit_generator' is computed replicated
// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<2xui64>
// CHECK-SAME:    -> (tensor<2xui64>{{.*}}, tensor<8x4xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
// CHECK:         %[[S:.*]], %[[BITS:.*]] = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<16x16xui32>)
// CHECK:         %[[MINE:.*]] = stablehlo.dynamic_slice %[[BITS]], %{{.*}}, %{{.*}}, sizes = [8, 4]
// CHECK:         return %[[S]], %[[MINE]]
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
func.func public @main(%state: tensor<2xui64>)
    -> (tensor<2xui64>, tensor<16x16xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<16x16xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<16x16xui32>
}
