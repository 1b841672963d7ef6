// --check-against xla (the default across processes, here in one): the reference is
// XLA's own partitioner on the same 8 devices, with the layouts of shardpy's per-device
// program at the boundary. 10 rows over "x"=4 are blocks of 3
// rows (3, 3, 3, 1): XLA would keep only the 2 of "x" that divide 10, so they cross its
// boundary padded to 12 rows. The entry is not named @main either.
// RUN: shardpy-run %s --check --check-against xla | FileCheck %s
// RUN: shardpy-run %s --check --check-against one-device | FileCheck %s --check-prefix=ONE
// CHECK: reference: XLA's SPMD partitioner on the same devices (the arguments and results laid out as shardpy's)
// CHECK: out0: max abs error {{.*}} ok
// CHECK: out1: max abs error {{.*}} ok
// CHECK: check: PASS
// ONE-NOT: reference: XLA
// ONE: check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @step(%a: tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %w: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<10x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<f32>) {
  %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<10x6xf32>, tensor<6x5xf32>) -> tensor<10x5xf32>
  %t = stablehlo.tanh %d : tensor<10x5xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<10x5xf32>, tensor<f32>) -> tensor<f32>
  return %t, %s : tensor<10x5xf32>, tensor<f32>
}
