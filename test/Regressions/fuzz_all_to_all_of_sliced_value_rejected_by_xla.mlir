// Found by test/fuzz (`run_fuzz.py --long --seed 300000 --disable known`: seed 307279),
// minimized. Was a run error: the per-device program all-to-alls the value of an
// optimization_barrier (of a transpose) that a slice reads too. XLA:CPU (jaxlib 0.10.2)
// rewrites the all-to-all into a tuple all-to-all of slices of its operand, CSE merges
// the first of them with the program's own slice (laid out as the transpose left it),
// and its HLO verifier then rejects the all-to-all ("HLO all-to-all has operands with
// different shapes: ... s32[2,8,16], but the 1th operand has shape s32[2,8,16]").
// shardpy-to-local gives an all_to_all whose operand has other users an
// optimization_barrier of its own, as it does after a concatenate or pad
// (fuzz_all_to_all_of_pad_rejected_by_xla.mlir).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// IR: %[[USERS:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<4x8x16xi32>
// IR: stablehlo.slice %[[USERS]]
// IR: %[[KEPT:.*]] = stablehlo.optimization_barrier %[[USERS]]
// IR-NEXT: "stablehlo.all_to_all"(%[[KEPT]])

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2], device_ids=[7, 2, 4, 5, 0, 3, 1, 6]>
  func.func public @main(%arg1: tensor<16x4x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}, {}]>}) -> (tensor<2x16x16xi32>, tensor<4x16x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {}, {"a"}]>}) {
    %v1 = stablehlo.transpose %arg1, dims = [1, 0, 2] : (tensor<16x4x16xi32>) -> tensor<4x16x16xi32>
    %v2 = stablehlo.optimization_barrier %v1 : tensor<4x16x16xi32>
    %v4 = stablehlo.slice %v2 [0:2, 0:16, 0:16] : (tensor<4x16x16xi32>) -> tensor<2x16x16xi32>
    %v5 = stablehlo.negate %v2 : tensor<4x16x16xi32>
    %v6 = sdy.sharding_constraint %v5 <@mesh, [{"c"}, {"b"}, {}]> : tensor<4x16x16xi32>
    return %v4, %v6 : tensor<2x16x16xi32>, tensor<4x16x16xi32>
  }
}
