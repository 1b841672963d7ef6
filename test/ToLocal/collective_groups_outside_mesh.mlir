// A collective over a mesh of fewer devices than the program's: XLA wants every device
// in one of its replica groups (all of one size), so the devices outside the mesh form
// groups of their own. Where they cannot (here 2 devices outside a mesh of 4, groups
// of 4, in a 6-device program) it is one located error, exit 1, no traceback.
// RUN: not shardpy-opt %s --shardpy-partition 2>&1 | FileCheck %s
// RUN: not shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK-NOT: Traceback
// CHECK: collective_groups_outside_mesh.mlir:16:8: error: a collective over groups of 4 devices of mesh <["b"=4]> (4 devices) cannot run in a program of 6 devices (the other 2 devices do not form such groups); not supported yet
// CHECK-NOT: Traceback
sdy.mesh @six = <["a"=6]>
sdy.mesh @four = <["b"=4]>
func.func public @main(%x: tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@six, [{"a"}, {}]>},
                       %y: tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@four, [{"b"}, {}]>}) -> (tensor<12x8xf32>, tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@four, [{}, {"b"}]>}) {
  %0 = stablehlo.negate %x : tensor<12x8xf32>
  %1 = stablehlo.negate %y : tensor<12x8xf32>
  %2 = sdy.sharding_constraint %1 <@four, [{}, {"b"}]> : tensor<12x8xf32>
  return %0, %2 : tensor<12x8xf32>, tensor<12x8xf32>
}
