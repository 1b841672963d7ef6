// Found by test/fuzz, minimized.
// Was a bug, fixed in 2e2a98e (invalid IR): the operands of the add are sharded on
// different axes, so shardpy-propagate leaves the add (and the callee's argument)
// without a sharding. shardpy-insert-reshards still computes the add sharded like an
// operand ([{"x"}]) and inserts no reshard before the func.call, whose callee argument
// is unsharded (whole value): after shardpy-to-local the call passes tensor<8xf32> to a
// tensor<32xf32> argument and verification fails with "'func.call' op operand type
// mismatch: expected operand type 'tensor<32xf32>', but provided 'tensor<8xf32>'". A
// call operand must be resharded to the callee argument's sharding, replicated when the
// argument has none (as func.return does for unannotated results).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func public @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %arg1: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<32xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<32xf32>
  %1 = call @callee(%0) : (tensor<32xf32>) -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

func.func private @callee(%arg0: tensor<32xf32>) -> tensor<32xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<32xf32>
  return %0 : tensor<32xf32>
}
