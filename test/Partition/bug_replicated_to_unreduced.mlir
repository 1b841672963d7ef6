// XFAIL: *
// BUG (wrong result): a replicated value returned as an unreduced result. Every device
// holds the whole value, but unreduced={"x"} means the devices along "x" hold partial
// values that sum to it, so the value must be kept on one device of each "x" group and
// zeroed (or scaled by 1/2) on the others. shardpy-insert-reshards emits
// `sdy.reshard %0 <@mesh_x2, [{}, {}], unreduced={"x"}>`; shardpy-reshard-to-collectives
// finds no plan (replicated -> unreduced "is not a collective"), takes the "last
// resort" (gather everything, slice), which for this pair is empty, warns that it
// "gathers the whole value and slices it again", and emits nothing. The per-device
// program returns the whole value on both devices, the runtime sums them: 2x the
// expected result ("check: FAIL"). The warning is wrong too: nothing was gathered.
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK-NOT: warning: resharding
// CHECK:     out0: max abs error {{.*}} ok
// CHECK:     check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

func.func public @main(%a: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{}, {}], unreduced={"x"}>}) {
  %0 = stablehlo.negate %a : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
