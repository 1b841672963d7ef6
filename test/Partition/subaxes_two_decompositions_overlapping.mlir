// Issue 19: "a":(1)3 and "a":(2)3 on "a"=6 overlap on [2, 3) and lie in different
// decompositions (3*2 and 2*3). Refining one by the other's end points made the sub-axis
// "a":(2)1, which sdy rejects; the planner now gathers and slices. The same shard count
// on one dim in two decompositions is one collective_permute (%1), and partial sums over
// one decomposition are summed before slicing in another (%2).
// RUN: shardpy-opt %s --shardpy-propagate --shardpy-insert-reshards --shardpy-reshard-to-collectives | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: MISMATCH
// EXEC:     check: PASS

sdy.mesh @m6 = <["a"=6]>

// CHECK-LABEL: func.func public @main
// CHECK-NOT:     "a":(2)1
// CHECK:         sdy.all_gather [{"a":(1)3}, {}] %{{.*}} out_sharding=<@m6, [{}, {}]>
// CHECK:         sdy.all_slice [{}, {"a":(2)3}]
// CHECK:         sdy.collective_permute %arg1 out_sharding=<@m6, [{"a":(3)2}, {}]>
// CHECK:         sdy.all_reduce {"a":(1)2}
func.func public @main(%x: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(1)3}, {}]>},
                       %y: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(1)2}, {}]>},
                       %z: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{}, {}], unreduced={"a":(1)2}>})
    -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{}, {"a":(2)3}]>},
        tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(3)2}, {}]>},
        tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{}, {"a":(3)2}]>}) {
  %0 = stablehlo.cosine %x : tensor<6x6xf32>
  %1 = stablehlo.sine %y : tensor<6x6xf32>
  return %0, %1, %z : tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>
}
