// Found by test/fuzz, minimized.
// Was a bug, fixed in 09bdc75 (wrong result): a value that is not partial (here an
// argument, replicated) is returned with unreduced={"x"}. The devices along "x" must
// then hold partial values that sum to the result (the value on one device of each
// group, zeros elsewhere), but shardpy-insert-reshards' `sdy.reshard... unreduced={"x"}`
// is lowered by shardpy-reshard-to-collectives to nothing (it warns that it "gathers the
// whole value and slices it again"): every device keeps the whole value and the
// assembled result is 4x too large. The fuzzer hits it when a dot result whose
// contraction it sharded on "x" is returned unreduced={"x"} but propagation/constraints
// made it whole first. (Same bug as test/Partition/bug_replicated_to_unreduced.mlir, if
// that test exists.)
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<32xf32>)
    -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
  return %arg0 : tensor<32xf32>
}
