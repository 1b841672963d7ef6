// --timing (alias --mlir-timing) prints MLIR's execution time report to stderr, with a
// line per pass, native and shardpy alike, in pipeline order; stdout keeps the module.
// RUN: shardpy-opt %s --timing --canonicalize --shardpy-strip-shardings --cse 2> %t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.err
// RUN: shardpy-opt %s --mlir-timing --pass-pipeline='builtin.module(func.func(cse))' 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED
// With no passes there is still a report; without --timing there is none.
// RUN: shardpy-opt %s --timing 2>&1 >/dev/null | FileCheck %s --check-prefix=EMPTY
// RUN: shardpy-opt %s --canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE --allow-empty

// OUT:     func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// OUT-NOT: Execution time report

// CHECK:      ... Execution time report ...
// CHECK:      Total Execution Time: {{[0-9.]+}} seconds
// CHECK:      ----Wall Time----  ----Name----
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Canonicalizer
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  StripShardings
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  CSE
// CHECK:      {{[0-9.]+}} (100.0%)  Total

// EMPTY:      Execution time report
// EMPTY:      Total

// NONE-NOT:   {{.}}

// NESTED:      Execution time report
// NESTED:      'func.func' Pipeline
// NESTED-NEXT: CSE

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
