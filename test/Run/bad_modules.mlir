// Modules shardpy-run cannot run are one-line located errors, never tracebacks.
//
// RUN: not shardpy-run %s --reference 2>&1 | FileCheck %s
// CHECK: bad_modules.mlir:[[# @LINE + 3]]:1: error: 'func.func' op arg 0 - unknown axis name: "y"
// CHECK-NOT: Traceback
sdy.mesh @mesh = <["x"=2]>
func.func public @main(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
