// Found by test/fuzz (`run_fuzz.py --seed 0 --count 2000`: seed 1637), minimized.
// Was a bug, fixed in 068a292 (invalid IR): the value is sharded on "x":(2)2 and
// returned unreduced={"x"}. shardpy-reshard-to-collectives emits `sdy.all_gather [{},
// {"x":(2)2}]` and then `sdy.replicated_to_unreduced {"x"}` whose out_sharding says
// unreduced={"x":(1)2, "x":(2)2}: the unreduced axes are not merged back into "x", and
// the verifier rejects it: "'sdy.replicated_to_unreduced' op two consecutive sub-axes
// can be merged: "x":(1)2, "x":(2)2".
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(2)2}]>})
    -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  return %arg0 : tensor<16x32xf32>
}
