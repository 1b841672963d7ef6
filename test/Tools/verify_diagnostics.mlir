// --verify-diagnostics matches every diagnostic against expected-* comments (same syntax
// as mlir-opt: this line, @+N / @-N, @above, @below), chunk by chunk with the line
// numbers of this file; it succeeds when all match both ways. Chunks that pass are
// still printed, so their output can be checked too.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// Mismatches either way make the tool fail, each one reported; passing chunks still print.
// RUN: cd %S/Inputs && not shardpy-opt verify_diagnostics_mismatch.mlir --split-input-file --verify-diagnostics > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err
// RUN: FileCheck %s --check-prefix=BAD-OUT < %t.out
// Without --verify-diagnostics the comments mean nothing: an expected error still fails.
// RUN: not shardpy-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=PLAIN

// BAD:      {{^}}verify_diagnostics_mismatch.mlir:5: expected error 'this error does not happen' on line 6 was not produced
// BAD-NEXT: {{^}}unexpected verify_diagnostics_mismatch.mlir:13:8: error: custom op 'stablehlo.bogus' is unknown
// BAD-NEXT: {{^}}unexpected verify_diagnostics_mismatch.mlir:22:8: error: custom op 'stablehlo.bogus' is unknown
// BAD-NEXT: {{^}}verify_diagnostics_mismatch.mlir:21: expected error 'custom op 'stablehlo.bogus' is unknown' on line 23 was not produced
// BAD-NEXT: {{^}}unexpected verify_diagnostics_mismatch.mlir:31:8: error: custom op 'stablehlo.bogus' is unknown
// BAD-NEXT: {{^}}verify_diagnostics_mismatch.mlir:30: expected warning 'custom op 'stablehlo.bogus' is unknown' on line 31 was not produced
// BAD-NOT:  {{.}}

// BAD-OUT:     func.func @nothing_wrong
// BAD-OUT:     // -----
// BAD-OUT:     func.func @fine
// BAD-OUT-NOT: func.func


// -----

// A parse error, expected on the line after the comment.
func.func @parse_error(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // PLAIN: {{^}}{{.*}}verify_diagnostics.mlir:[[# @LINE + 2]]:8: error: custom op 'stablehlo.bogus' is unknown
  // expected-error@+1 {{custom op 'stablehlo.bogus' is unknown}}
  %0 = stablehlo.bogus %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A stablehlo verifier error (operand and result element types differ), '@below'.
func.func @bad_types(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error@below {{op requires the same element type for all operands and results}}
  %0 = stablehlo.add %arg0, %arg1 : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Shardy's verifier: a sharding naming an axis its mesh does not have, on an argument
// (reported at the func), '@above'.
sdy.mesh @mesh = <["x"=2]>
func.func @unknown_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  // expected-error@above {{'func.func' op arg 0 - unknown axis name: "y"}}
  return %arg0 : tensor<8xf32>
}

// -----

// ... and on an op: expected on the comment's own line, and with '@-N'.
sdy.mesh @mesh = <["x"=2]>
func.func @unknown_axis_on_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"z"}]> : tensor<8xf32> // expected-error {{unknown axis name: "z"}}
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @unknown_axis_on_op_result(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"w"}]>]>} : tensor<8xf32>

  // expected-error@-2 {{unknown axis name: "w"}}
  return %0 : tensor<8xf32>
}

// -----

// The missing ': type' of a sharding_constraint: the error and shardpy's note.
sdy.mesh @mesh = <["x"=2]>
func.func @missing_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]>
  // expected-error@above {{expected ':'}}
  // expected-note@above {{ends with ': <tensor type>'}}
  return %0 : tensor<8xf32>
}

// -----

// A chunk without diagnostics is printed.
// CHECK:      func.func @fine(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:   %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NOT:  func.func
func.func @fine(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
