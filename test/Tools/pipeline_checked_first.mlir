// The pipeline is checked before any input is read, as mlir-opt does: a bad pass
// name is the one error even when the input would not parse.
// RUN: not shardpy-opt %s --no-such-pass 2>&1 | FileCheck %s
// CHECK: shardpy-opt: error: cannot add 'no-such-pass' to the pipeline
// CHECK-NOT: stablehlo.bogus
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.bogus %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
