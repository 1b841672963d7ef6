// Issue 19: "a":(1)3 and "a":(2)3 on "a"=6 overlap on [2, 3) and lie in different
// decompositions (3*2 and 2*3). Refining one by the other's end points made the sub-axis
// "a":(2)1, which sdy rejects. Dim 0 on "a":(1)3 to dim 1 on "a":(2)3 is now an
// all_to_all of "a":(1)3 onto dim 1 (3 shards there, as the target has) and one
// collective_permute (80 B per device; gathering and slicing moved 96). The same shard
// count on one dim in two decompositions is one collective_permute (%1), and partial
// sums over one decomposition are summed before slicing in another (%2).
// Ranked by bytes (%bytes_only): with the shipped cpu profile an array this small is
// gathered instead (one all_gather is faster than an all_to_all and a collective_permute).
// RUN: %bytes_only shardpy-opt %s --shardpy-propagate --shardpy-insert-reshards --shardpy-reshard-to-collectives | FileCheck %s
// RUN: %bytes_only shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: MISMATCH
// EXEC:     check: PASS

sdy.mesh @m6 = <["a"=6]>

// CHECK-LABEL: func.func public @main
// CHECK-NOT:     "a":(2)1
// CHECK:         sdy.all_to_all [{"a":(1)3}: 0->1] %{{.*}} out_sharding=<@m6, [{}, {"a":(1)3}]>
// CHECK-NEXT:    sdy.collective_permute %{{.*}} out_sharding=<@m6, [{}, {"a":(2)3}]>
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
