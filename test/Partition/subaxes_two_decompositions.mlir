// Issue 19: on "a"=6, "a":(1)2 is the major digit of 6 = 2*3 (coordinate // 3) and
// "a":(3)2 the minor digit of 6 = 3*2 (coordinate % 2). No finer sub-axes express both,
// so the reshard goes through the whole axis: gather dim 0, slice dim 1 (this program
// gave wrong values when the planner sliced dim 1 before gathering dim 0, leaving the
// value sharded on both digits at once).
// RUN: shardpy-opt %s --shardpy-propagate --shardpy-insert-reshards --shardpy-reshard-to-collectives | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: MISMATCH
// EXEC:     check: PASS

sdy.mesh @m6 = <["a"=6]>

// CHECK-LABEL: func.func public @main
// CHECK:         %[[G:.*]] = sdy.all_gather [{"a":(1)2}, {}] %{{.*}} out_sharding=<@m6, [{}, {}]>
// CHECK:         sdy.all_slice [{}, {"a":(3)2}] %[[G]] out_sharding=<@m6, [{}, {"a":(3)2}]>
func.func public @main(%x: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(1)2}, {}]>})
    -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{}, {"a":(3)2}]>}) {
  %0 = stablehlo.cosine %x : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
