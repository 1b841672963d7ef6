// XFAIL: *
// BUG (shardpy-run, not the partitioner): an argument with unreduced axes is split as
// if replicated. runtime.split_global gives every device the whole global value, but
// unreduced={"y"} means the devices along "y" hold partial values that sum to it (so
// e.g. the value on one device of each group and zeros elsewhere). The partitioned
// program therefore sees 4x the argument and "check: FAIL" is reported for a correct
// program: here the all_reduce that finishes the partial sum is exactly right.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}], unreduced={"y"}>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) {
  %0 = sdy.reshard %a <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
