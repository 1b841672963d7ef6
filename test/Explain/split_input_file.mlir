// --explain with --split-input-file prints each program's collectives; the files
// --explain-json and --explain-html write hold one program, so several are refused
// with one error (exit 1) instead of keeping only the last program's.
// RUN: shardpy-opt %s --split-input-file --shardpy-partition --explain -o /dev/null 2>&1 | FileCheck %s
// CHECK: == why each collective is here (--explain)
// CHECK-NEXT: 1 collective(s)
// CHECK-NEXT: 1. all_gather axes x
// CHECK: == why each collective is here (--explain)
// CHECK-NEXT: 1 collective(s)
// CHECK-NEXT: 1. all_reduce axes x
// RUN: not shardpy-opt %s --split-input-file --shardpy-partition --explain-json %t.json 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not shardpy-opt %s --split-input-file --shardpy-partition --explain-html %t.html 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: shardpy-opt: error: --explain-json and --explain-html explain one program; this --split-input-file input has 2

sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %b = stablehlo.negate %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}
