// An argument with unreduced axes reaches the devices as partial values that sum to
// it (the value on the first device of each group along "y", zeros elsewhere), so
// the all_reduce that finishes the sum gives back the argument.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) {
  %0 = sdy.reshard %a <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
