// Found by the first batch of fuzz programs run over 2 processes, whose --check
// reference is XLA's partitioner (seed 24, minimized). NOT a shardpy bug: XLA's SPMD
// partitioner (Shardy, jaxlib 0.10.2) computes this convolution wrong when the
// kernel's window dim (2 taps) is sharded on "a" and the input's spatial dim on "b",
// with padding [1, 0] (1,023 of 1,024 elements off by up to 18.9). shardpy's program
// matches the unpartitioned one (first RUN line); XLA's partitioning of the same module
// with the same layouts does not (second RUN line: pinned as failing, with the note a
// user then reads). Without the padding, or with the kernel whole, XLA is right. This
// is why a run over several processes offers --check-against one-device.
// When XLA's partitioner gets it right, the second line fails: make it a passing check.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: out0: max abs error {{.*}} ok
// CHECK: check: PASS
// RUN: not shardpy-run %s --check --check-against xla | FileCheck %s --check-prefix=XLA
// XLA: out0: max abs error {{.*}} MISMATCH
// XLA: check: FAIL
// XLA-NEXT: note: the reference is XLA's partitioner, which has bugs of its own; --check-against one-device compares with the unpartitioned program

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%x: tensor<4x1x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"b"}]>},
                %k: tensor<2x1x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}, {}]>})
    -> (tensor<4x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}, {}]>}) {
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[1, 0]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x1x32xf32>, tensor<2x1x8xf32>) -> tensor<4x32x8xf32>
  return %y : tensor<4x32x8xf32>
}
