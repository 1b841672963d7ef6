// --split-input-file: each '// -----' chunk is its own module. A chunk that fails is
// reported with line numbers of this file and leaves an empty chunk in the output (as
// mlir-opt does); the others are still printed, joined by '// -----'; the exit status
// is non-zero.
// RUN: not shardpy-opt %s --split-input-file > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// Passes run on each chunk separately; the failing chunks fail before any pass runs.
// RUN: not shardpy-opt %s --split-input-file --shardpy-strip-shardings 2>&1 | FileCheck %s --check-prefix=STRIP
// Without the flag the markers are plain comments: one module, the first error stops it.
// RUN: not shardpy-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK:      module {
// CHECK-NEXT:   func.func @first
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT:   func.func @fourth
// CHECK-NOT:  // -----
// CHECK-NOT:  func.func

// STRIP:      error: custom op 'stablehlo.bogus' is unknown
// STRIP:      error: 'func.func' op arg 0 - unknown axis name: "y"
// STRIP:      func.func @first
// STRIP-NOT:  sdy.
// STRIP:      // -----
// STRIP-NOT:  sdy.
// STRIP:      func.func @fourth
// STRIP-NOT:  sdy.

func.func @first(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

func.func @second(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // ERR:   {{^}}[[FILE:.*split_input_file.mlir]]:[[# @LINE + 2]]:8: error: custom op 'stablehlo.bogus' is unknown
  // WHOLE: {{^}}{{.*}}split_input_file.mlir:[[# @LINE + 1]]:8: error: custom op 'stablehlo.bogus' is unknown
  %0 = stablehlo.bogus %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// WHOLE-NOT: error:
// WHOLE-NOT: module

// -----

// The verifier (here sdy's attribute verifier) rejects this chunk after it parses.
sdy.mesh @mesh = <["x"=2]>
// (MLIR's "see current operation" note with the op dump is left out unless SHARDPY_DEBUG is set.)
// ERR:      {{^}}[[FILE]]:[[# @LINE + 2]]:1: error: 'func.func' op arg 0 - unknown axis name: "y"
// ERR-NOT:  see current operation
func.func @third(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
// ERR-NOT:  error:

// -----
sdy.mesh @mesh = <["x"=2]>
func.func @fourth(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
