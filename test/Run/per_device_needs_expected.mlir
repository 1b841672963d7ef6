// A per-device module has no global program to serve as the reference.
// RUN: not shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK: shardpy-run: error: a per-device module has no global program to run as the reference; compare with --expected OUT.npz instead
module attributes {shardpy.per_device} {
  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
