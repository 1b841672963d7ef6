// Found by test/fuzz (`run_fuzz.py --seed 2000 --count 4000`: seed 2868), minimized.
// Guards: the dot's result is returned unreduced={"x"} while a user of it is
// constrained to [{"x":(2)2}, {}]. Propagation used to make the dot
// <@mesh, [{"x":(2)2}, {}], unreduced={"x"}> (a sub-axis of an axis that is also
// unreduced), which the verifier rejects. An axis overlapping a dim's axes is never
// made unreduced; the result is converted to unreduced at the return instead.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"x":(2)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
