// Found by test/fuzz, minimized.
// Was a bug, fixed in b146ea5 (shardpy-run's runtime, not the passes): a rank-0 argument
// on a mesh of more than one device makes `shardpy-run --check` fail with "internal
// error: TypeError: 'numpy.int32' object does not support item assignment":
// runtime.split_global builds rows of shape (num_devices,) and assigns into
// rows[device], a numpy scalar. (Same bug as
// test/Partition/bug_run_scalar_argument.mlir, if that test exists.)
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg1 : tensor<8x8xf32>
}
