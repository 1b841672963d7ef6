// A reshape merging two sharded dims. Propagation can give the merged dim only the
// major dim's axes ([{"x"}, {"y"}] -> [{"x"}]: "y" sits on the minor factor, which
// cannot be sharded under an unsharded part of the major one), so insert-reshards
// would all-gather "y" first: 3 MiB per device here. Chosen for the whole program,
// the merged value takes "y" too, and the reshape's plan moves "y" onto the major dim
// by all_to_all (0.75 MiB) before reshaping locally; the exponential and the sum then
// work on an eighth of the array instead of a half.
// RUN: shardpy-opt %s --shardpy-propagate --shardpy-choose-shardings | FileCheck %s
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=LOCAL
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.reshape {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x", "y"}]>]>}
// CHECK-NEXT:    stablehlo.exponential {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x", "y"}]>]>}
// LOCAL-LABEL: func.func public @main(
// LOCAL-NOT:     stablehlo.all_gather
// LOCAL:         stablehlo.all_to_all
// LOCAL-SAME:      (tensor<512x256xf32>) -> tensor<128x1024xf32>
// LOCAL-NEXT:    stablehlo.reshape {{.*}} (tensor<128x1024xf32>) -> tensor<131072xf32>
// LOCAL-NOT:     stablehlo.all_gather
func.func public @main(%a: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<f32>) {
  %0 = stablehlo.reshape %a : (tensor<1024x1024xf32>) -> tensor<1048576xf32>
  %1 = stablehlo.exponential %0 : tensor<1048576xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1048576xf32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}
