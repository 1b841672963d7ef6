// Found by test/fuzz (seed 8101122, a program through GSPMD, whose import put a
// 2-device mesh first), minimized. A WRONG ANSWER before the fix: %arg1 ends up with no
// sharding (its maximal placement is computed replicated: on all 4 devices, the
// program's largest mesh) and the dot wants it sharded on the 2-device @small.
// Lowering that reshard wrote "replicated on @small" onto %arg1 itself, so the argument
// reached devices 0 and 1 only, and the multiply (on every device, for the result
// replicated on @big) computed from zeros on devices 2 and 3: replicas disagreed by
// 0.8. Now an unannotated source is replicated on the program's devices, and the
// per-device program has as many partitions as its largest result mesh.
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK-NOT: replicas
// CHECK: check: PASS
// RUN: shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s --check-prefix=IR
// IR: module @fuzz attributes {mhlo.num_partitions = 4 : i32
// IR: %arg1: tensor<1x2xf32> {sdy.sharding = #sdy.sharding<@big, [{}, {}]>}

module @fuzz attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @small = <["a"=2]>
  sdy.mesh @big = <["a"=2, "b"=2]>
  sdy.mesh @maximal = <[], device_ids=[2]>
  func.func public @main(%arg0: tensor<1xf32>, %arg1: tensor<1x2xf32>) -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@small, [{"a"}]>}, tensor<1x2xf32> {sdy.sharding = #sdy.sharding<@big, [{}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0] : (tensor<1xf32>, tensor<1x2xf32>) -> tensor<2xf32>
    %1 = sdy.sharding_constraint %arg1 <@maximal, []> : tensor<1x2xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<1x2xf32>
    %3 = stablehlo.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<1x2xf32>
    %4 = stablehlo.add %2, %3 : tensor<1x2xf32>
    return %0, %4 : tensor<2xf32>, tensor<1x2xf32>
  }
}
