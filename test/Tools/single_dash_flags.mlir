// Like mlir-opt (LLVM command-line flags), tool options and pass flags may be spelled
// with one dash, so RUN lines copied from MLIR or Shardy test suites work unchanged.
// RUN: shardpy-opt %s -split-input-file -verify-diagnostics -canonicalize -shardpy-strip-shardings | FileCheck %s
// RUN: shardpy-opt %s -split-input-file -pass-pipeline='builtin.module(shardpy-strip-shardings)' -o %t.mlir -mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: FileCheck %s < %t.mlir

// TIMING: Execution time report
// TIMING: StripShardings

// CHECK:      func.func @first(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:      // -----
// CHECK:      func.func @second(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NOT:  sdy.
sdy.mesh @mesh = <["x"=2]>
func.func @first(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @second(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
