// Found by test/fuzz (`run_fuzz.py --long --seed 0`: seed 9681), minimized.
// Guards: the per-device program all-to-alls the result of a pad (high padding on the
// split dim). XLA:CPU rewrites that into a tuple all-to-all of the pieces and then
// rejects it ("HLO all-to-all has operands with different shapes"); shardpy-to-local
// puts an optimization barrier between the pad and the all_to_all, as it does for a
// concatenate (fuzz_all_to_all_of_concatenate_rejected_by_xla.mlir).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// IR: %[[PAD:.*]] = stablehlo.pad {{.*}}high = [2, 0]
// IR: %[[KEPT:.*]] = stablehlo.optimization_barrier %[[PAD]]
// IR: "stablehlo.all_to_all"(%[[KEPT]])

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2], device_ids=[2, 0, 3, 5, 6, 4, 1, 7]>
  func.func public @main(%arg0: tensor<32x16xf32>) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {}]>}) {
    %cst = stablehlo.constant dense<-2.500000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [-9, 0], high = [-7, 0], interior = [0, 0] : (tensor<32x16xf32>, tensor<f32>) -> tensor<16x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"a"}]> : tensor<16x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.tanh %2 : tensor<16xf32>
    %4 = stablehlo.reshape %3 : (tensor<16xf32>) -> tensor<8x2xf32>
    %5 = stablehlo.transpose %4, dims = [1, 0] : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.pad %5, %cst_1, low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<2x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    return %6 : tensor<4x8xf32>
  }
}
