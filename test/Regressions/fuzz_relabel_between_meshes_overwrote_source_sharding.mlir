// Found by the fuzzer (second_mesh, seed 701064): a value replicated on @mesh crosses
// onto @mesh2, a subset of its devices, twice (both case branches return it); such a
// move is a relabel, no data moves. shardpy-to-local made no new value for it and
// recorded @mesh2 as the sharding of the value itself, so the second crossing saw a
// move from @mesh2 to @mesh2 ("internal: an sdy.reshard on one mesh is left").
// A relabel now makes a value of its own (a reshape to the same type).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK:         "stablehlo.case"
// CHECK:         stablehlo.reshape %{{.*}} : (tensor<f32>) -> tensor<f32>
// CHECK:         stablehlo.reshape %{{.*}} : (tensor<f32>) -> tensor<f32>
sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 2, 0, 1]>
sdy.mesh @mesh2 = <["x"=2]>
func.func public @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %k: tensor<i32>) -> (tensor<f32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %0 = "stablehlo.case"(%k) ({
    stablehlo.return %s : tensor<f32>
  }, {
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh2, []>]>} : (tensor<i32>) -> tensor<f32>
  %1 = stablehlo.negate %s {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
