// One pipeline mixes native MLIR passes and shardpy's Python passes, in order. The
// --pass-pipeline text and the equivalent pass flags give the same result.
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(canonicalize,shardpy-strip-shardings,cse)' -o %t.pipeline.mlir
// RUN: shardpy-opt %s --canonicalize --shardpy-strip-shardings --cse -o %t.flags.mlir
// RUN: diff %t.pipeline.mlir %t.flags.mlir
// RUN: FileCheck %s < %t.flags.mlir
// Order matters: cse before the strip sees two different negates (one carries a sharding).
// RUN: shardpy-opt %s --cse --shardpy-strip-shardings | FileCheck %s --check-prefix=ORDER
// Native passes may be nested under func.func.
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s --check-prefix=NESTED

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %[[N]], %[[N]] : tensor<8xf32>
// CHECK-NEXT:    return %[[A]] : tensor<8xf32>

// ORDER-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// ORDER-NEXT:    %[[N1:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// ORDER-NEXT:    %[[N2:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
// ORDER-NEXT:    stablehlo.add %[[N1]], %[[N2]] : tensor<8xf32>

// NESTED:        sdy.mesh @mesh
// NESTED-LABEL:  func.func @main(
// NESTED-NEXT:     %[[C:.*]] = sdy.sharding_constraint %arg0
// NESTED-NEXT:     %[[N1:.*]] = stablehlo.negate %[[C]] {sdy.sharding
// NESTED-NEXT:     %[[N2:.*]] = stablehlo.negate %[[C]] : tensor<8xf32>
// NESTED-NEXT:     stablehlo.add %[[N1]], %[[N2]] : tensor<8xf32>

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = stablehlo.negate %0 : tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
