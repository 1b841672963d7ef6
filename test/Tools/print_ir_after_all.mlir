// --mlir-print-ir-after-all prints the whole module to stderr after every pass, native
// and shardpy alike, in pipeline order, with MLIR's "IR Dump After" headers; stdout
// still gets the final module only.
// RUN: shardpy-opt %s --mlir-print-ir-after-all --canonicalize --shardpy-strip-shardings --cse 2> %t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.err
// Nested passes are dumped with the module around them.
// RUN: shardpy-opt %s --mlir-print-ir-after-all --pass-pipeline='builtin.module(func.func(cse))' 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED

// OUT:     module {
// OUT-NOT: IR Dump
// OUT-NOT: sdy.

// After canonicalize nothing is stripped yet.
// CHECK:      // -----// IR Dump After {{.*}}canonicalize{{.*}}//----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   sdy.mesh @mesh = <["x"=2]>
// CHECK:        sdy.sharding_constraint
// CHECK:        %[[A:.*]] = stablehlo.negate %[[C:.*]] {sdy.sharding
// CHECK-NEXT:   %[[B:.*]] = stablehlo.negate %[[C]] : tensor<8xf32>
// CHECK-NEXT:   stablehlo.add %[[A]], %[[B]]

// CHECK:      // -----// IR Dump After StripShardings: shardpy-strip-shardings ('builtin.module' operation) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:     %[[A:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT:     %[[B:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT:     stablehlo.add %[[A]], %[[B]]

// CHECK:      // -----// IR Dump After {{.*}}cse{{.*}}//----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:     %[[A:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT:     stablehlo.add %[[A]], %[[A]]
// CHECK-NOT:  IR Dump After

// NESTED:      // -----// IR Dump After {{.*}}cse ('func.func' operation: @main) //----- //
// NESTED-NEXT: module {
// NESTED-NOT:  IR Dump After

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = stablehlo.negate %0 : tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
