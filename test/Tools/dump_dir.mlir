// --dump-dir DIR writes the module before the pipeline (00_input.mlir) and after each
// top-level pipeline element (NN_<name>.mlir, numbered from 01 in pipeline order); each
// file holds the whole module at that point. stdout still gets the final module.
// RUN: rm -rf %t && shardpy-opt %s --dump-dir %t --canonicalize --shardpy-strip-shardings --cse > %t.out
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=INPUT < %t/00_input.mlir
// RUN: FileCheck %s --check-prefix=INPUT < %t/01_canonicalize.mlir
// RUN: FileCheck %s --check-prefix=STRIP < %t/02_shardpy-strip-shardings.mlir
// RUN: FileCheck %s --check-prefix=CSE < %t/03_cse.mlir
// The last file is exactly what stdout got.
// RUN: diff %t/03_cse.mlir %t.out
// A nested element is one step, named after its anchor; the directory is created as needed.
// RUN: rm -rf %t.nested && shardpy-opt %s --dump-dir=%t.nested/sub --pass-pipeline='builtin.module(func.func(cse),shardpy-strip-shardings)' > %t.nested.out
// RUN: ls %t.nested/sub | FileCheck %s --check-prefix=NESTED

// FILES:      {{^}}00_input.mlir
// FILES-NEXT: {{^}}01_canonicalize.mlir
// FILES-NEXT: {{^}}02_shardpy-strip-shardings.mlir
// FILES-NEXT: {{^}}03_cse.mlir
// FILES-NOT:  {{.}}

// INPUT:      sdy.mesh @mesh = <["x"=2]>
// INPUT:      func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
// INPUT-NEXT:   %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
// INPUT-NEXT:   %[[A:.*]] = stablehlo.negate %[[C]] {sdy.sharding
// INPUT-NEXT:   %[[B:.*]] = stablehlo.negate %[[C]] : tensor<8xf32>
// INPUT-NEXT:   stablehlo.add %[[A]], %[[B]]

// STRIP-NOT:  sdy.
// STRIP:      func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// STRIP-NEXT:   %[[A:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// STRIP-NEXT:   %[[B:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// STRIP-NEXT:   stablehlo.add %[[A]], %[[B]]

// CSE:        func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CSE-NEXT:     %[[A:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// CSE-NEXT:     stablehlo.add %[[A]], %[[A]]

// NESTED:      {{^}}00_input.mlir
// NESTED-NEXT: {{^}}01_func.func.mlir
// NESTED-NEXT: {{^}}02_shardpy-strip-shardings.mlir
// NESTED-NOT:  {{.}}

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = stablehlo.negate %0 : tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
