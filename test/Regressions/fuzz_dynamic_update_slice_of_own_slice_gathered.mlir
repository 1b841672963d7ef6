// Found by test/fuzz (`run_fuzz.py --long --seed 200000 --disable known`: seed
// 201936), minimized. Was a wrong value (10 of 200 elements): x' =
// dynamic_update_slice(x, dynamic_slice(x, 0, s), 0, 9) with x sharded on "b" (rows),
// then resharded to the uneven {"a", "b"} (10 rows over 4: all_gather over "b", pad,
// dynamic_slice by partition id). The per-device program is right as StableHLO (same
// slice and update on each 5x20 shard), but column 18 of the result holds x[:, 0] (the
// value the update wrote at column 9) instead of x[:, 9], for every start s < 9, as
// if the slice read the buffer after the update wrote it. Cause (XLA dump of the
// per-device executable, `XLA_FLAGS=--xla_dump_to=DIR --xla_dump_hlo_as_text`):
// XLA:CPU fuses the slice and the update into one in-place dynamic-update-slice
// fusion over a copy of the argument, whose operand is bitcast(param [1,5,20] ->
// [5,20]) while the slice reads param [1,5,20] directly; the overlap check misses the
// bitcast, so the update overwrites what the slice still reads. The [1,5,20] is how
// shardpy-run stacks per-device rows in its manual computation; the unpartitioned
// program and a plain-JAX shard_map (no leading 1) are right, and an
// optimization_barrier does not keep XLA from fusing them. Fixed in the runtime: the
// local arrays are stacked along their first dim, so the body gets them without a
// bitcast (runtime._add_manual_main).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2], device_ids=[2, 4, 1, 3, 0, 5, 7, 6]>
  func.func public @main(%arg0: tensor<10x20xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %arg1: tensor<i32>) -> (tensor<10x20xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {}]>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %c, %arg1, sizes = [10, 10] : (tensor<10x20xf32>, tensor<i32>, tensor<i32>) -> tensor<10x10xf32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<9> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %c_0, %c_1 : (tensor<10x20xf32>, tensor<10x10xf32>, tensor<i32>, tensor<i32>) -> tensor<10x20xf32>
    %2 = stablehlo.negate %1 : tensor<10x20xf32>
    return %2 : tensor<10x20xf32>
  }
}
