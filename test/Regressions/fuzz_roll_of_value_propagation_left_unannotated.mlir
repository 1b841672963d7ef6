// Found by test/fuzz (`run_fuzz.py --enable rich_windowed --seed 9980000`: seed
// 9980130), minimized. Was a partition error ("'stablehlo.slice' cannot be computed on
// the shards insert-reshards chose"), fixed in the commit that added this test:
// propagation leaves the select unannotated ("x" and "y" conflict on its one dim) and
// insert-reshards then places it on "x". Its roll (x[3:] then x[:3]) is computed from
// x's shards: the two slices are skipped. But the concatenate, with nothing annotated
// on its slices or its result, took the "computed whole" early exit before the roll
// check, so nothing computed the roll and the slices read x's shards as if whole. The
// roll check now comes first: rolling by half of a dim split in two swaps the shards
// (one collective_permute), then the result is gathered whole (unannotated).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR: stablehlo.select
// IR: "stablehlo.collective_permute"
// IR-SAME: source_target_pairs = dense<{{\[}}[2, 0], [0, 2], [3, 1], [1, 3]]>
// IR: "stablehlo.all_gather"
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%arg0: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                       %arg1: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>},
                       %arg2: tensor<6xi1>) -> tensor<6xi32> {
  %0 = stablehlo.select %arg2, %arg0, %arg1 : tensor<6xi1>, tensor<6xi32>
  %1 = stablehlo.slice %0 [3:6] : (tensor<6xi32>) -> tensor<3xi32>
  %2 = stablehlo.slice %0 [0:3] : (tensor<6xi32>) -> tensor<3xi32>
  %3 = stablehlo.concatenate %1, %2, dim = 0 : (tensor<3xi32>, tensor<3xi32>) -> tensor<6xi32>
  return %3 : tensor<6xi32>
}
