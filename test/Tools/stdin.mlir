// Input comes from stdin when the file is '-' or left out; diagnostics then name the
// buffer <stdin> (as mlir-opt does), chunk by chunk with --split-input-file, and so
// do --verify-diagnostics reports.
// RUN: shardpy-opt - < %s | FileCheck %s
// RUN: not shardpy-opt --split-input-file < %S/Inputs/stdin_errors.mlir 2>&1 | FileCheck %s --check-prefix=ERR-SPLIT
// RUN: shardpy-opt --split-input-file --verify-diagnostics < %S/Inputs/stdin_errors.mlir
// RUN: not shardpy-opt --split-input-file --verify-diagnostics - < %S/Inputs/verify_diagnostics_mismatch.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// A missing file is one line, not a traceback.
// RUN: not shardpy-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK:      sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT: func.func @from_stdin(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {

// ERR-SPLIT:      {{^}}<stdin>:4:8: error: custom op 'stablehlo.bogus' is unknown
// ERR-SPLIT-NEXT: {{^}}<stdin>:13:8: error: 'sdy.sharding_constraint' op unknown axis name: "y"
// ERR-SPLIT-NOT:  func.func @

// MISMATCH:      {{^}}<stdin>:5: expected error 'this error does not happen' on line 6 was not produced
// MISMATCH-NEXT: {{^}}unexpected <stdin>:13:8: error: custom op 'stablehlo.bogus' is unknown

// MISSING-NOT: Traceback
// MISSING:     {{^}}shardpy-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': {{[Nn]}}o such file

sdy.mesh @mesh = <["x"=2]>
func.func @from_stdin(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
