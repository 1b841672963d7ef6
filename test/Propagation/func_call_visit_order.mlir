// A callee's ops are visited at its call site, as Shardy visits them: its import turns
// each call into a named computation holding the callee's body (an edge on each
// argument first, the body, an edge on each result right after), and each level of
// propagation starts its worklist with the ops in program order. So at level 2 the dot
// producing %0 shards the callee's argument, the callee's ops, and the call's result
// [{"data"}, {"model"}] before the second dot is visited; that dot then sees "model"
// on both operands' non-contracting factors, and the larger operand (the call's
// result, 64x256 against 64x64) keeps it: [{}, {"model"}], as native Shardy gives (and
// jax.jit lays out the weight gradient of relu(x @ w1) @ w2).
//
// Before, callee bodies were visited after their caller and call results last: the
// second dot ran while %1 was still open, took "model" on its factor from %g alone
// ([{"model"}, {}]), and kept it once %1 was sharded (shardings only grow).
// The second case has the callee defined before main and a call nested in it.
//
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s
// RUN: shardpy-opt %s --split-input-file --pass-pipeline='builtin.module(sdy-propagation-pipeline)' | FileCheck %s --check-prefix=NATIVE

sdy.mesh @mesh = <["data"=2, "model"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %1 = call @relu(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
// CHECK:         %2 = stablehlo.dot_general %arg2, %1, {{.*}}<@mesh, [{}, {"model"}]>
// NATIVE-LABEL: func.func public @main(
// NATIVE:         %2 = stablehlo.dot_general %arg2, %1, {{.*}}<@mesh, [{}, {"model"}]>
func.func public @main(%x: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
                       %w: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                       %g: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
    -> tensor<64x256xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %1 = func.call @relu(%0) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %2 = stablehlo.dot_general %g, %1, contracting_dims = [0] x [0] : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  return %2 : tensor<64x256xf32>
}

func.func private @relu(%a: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = stablehlo.negate %a : tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

sdy.mesh @mesh = <["data"=2, "model"=4]>

func.func private @inner(%a: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = stablehlo.negate %a : tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

func.func private @outer(%a: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = stablehlo.abs %a : tensor<64x256xf32>
  %1 = func.call @inner(%0) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  return %1 : tensor<64x256xf32>
}

// CHECK-LABEL: func.func public @main(
// CHECK:         %1 = call @outer(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
// CHECK:         %2 = stablehlo.dot_general %arg2, %1, {{.*}}<@mesh, [{}, {"model"}]>
// NATIVE-LABEL: func.func public @main(
// NATIVE:         %2 = stablehlo.dot_general %arg2, %1, {{.*}}<@mesh, [{}, {"model"}]>
func.func public @main(%x: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
                       %w: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                       %g: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
    -> tensor<64x256xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %1 = func.call @outer(%0) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %2 = stablehlo.dot_general %g, %1, contracting_dims = [0] x [0] : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  return %2 : tensor<64x256xf32>
}
