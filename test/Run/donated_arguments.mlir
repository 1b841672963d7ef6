// A train step as jax.jit(..., donate_argnums=...) lowers it: the weight is donated
// (jax.buffer_donor) and the momentum aliased to a result (tf.aliasing_output). A run
// consumes such inputs, so every run, timed or not, gets copies made on the devices
// before its clock starts: the reference, shardpy's per-device program (whose wrapper
// keeps the donation) and XLA's partitioning all run again after their first run.
// (Before, the second run met deleted buffers: an error, and a crash with
// --against-xla.)
//
// RUN: shardpy-run %s --check --benchmark 3 | FileCheck %s
// CHECK: partitioned: median {{.*}} over 3 runs
// CHECK: reference: median {{.*}} over 3 runs
// CHECK: out0: max abs error {{.*}} ok
// CHECK: out1: max abs error {{.*}} ok
// CHECK: check: PASS
//
// RUN: shardpy-run %s --against-xla --benchmark 3 | FileCheck %s --check-prefix=XLA
// XLA: check: PASS
// XLA: outputs vs 1 device {{ +}}match (max abs error {{.*}}) {{ +}}match (max abs error {{.*}})
// XLA: step time, median of 3 {{ +}}{{[0-9.]+}} ms {{ +}}{{[0-9.]+}} ms

module @donated_step {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(
      %w: tensor<64x32xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>},
      %m: tensor<64x32xf32> {tf.aliasing_output = 1 : i32, sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>},
      %x: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
      -> (tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>},
          tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %g = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %c = stablehlo.constant dense<0.9> : tensor<64x32xf32>
    %lr = stablehlo.constant dense<0.01> : tensor<64x32xf32>
    %decayed = stablehlo.multiply %m, %c : tensor<64x32xf32>
    %m2 = stablehlo.add %decayed, %g : tensor<64x32xf32>
    %step = stablehlo.multiply %m2, %lr : tensor<64x32xf32>
    %w2 = stablehlo.subtract %w, %step : tensor<64x32xf32>
    return %w2, %m2 : tensor<64x32xf32>, tensor<64x32xf32>
  }
}
