// A dim split evenly by a manual computation's manual axes and then unevenly by its
// free axes has two layouts: the global sharding's (tiles of ceil(4 / 8) = 1 row: rows
// on devices 0-3, padding on 4-7) and the one the manual code reads ("a" splits the 4
// rows in two, then "b","c" split each half with padding). shardpy once built the
// per-device program on the first, and the devices of "a" = 1 read padding: a WRONG
// ANSWER (fuzz seed 7075 of the 10k run of 2026-11-27; XLA's partitioner matched
// numpy). Now such a dim crosses the boundary split by the manual axes only, and the
// free axes are put back on each side by a reshard in that side's frame.

// RUN: shardpy-opt %s --split-input-file --shardpy-propagate --shardpy-insert-reshards | FileCheck %s
// Each module run on the mesh against XLA's partitioner:
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[0])" %s | shardpy-run - --check | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[1])" %s | shardpy-run - --check | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[2])" %s | shardpy-run - --check | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[3])" %s | shardpy-run - --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// The operand: 4 rows on "a","b","c", "a" manual.
// CHECK-LABEL: module @operand
// CHECK:         %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}, {}, {}]>
// CHECK:         sdy.manual_computation(%[[IN]]) in_shardings=[<@mesh, [{"a"}, {}, {}]>] out_shardings=[<@mesh, [{}, {"a"}, {}]>] manual_axes={"a"} (%[[ARG:.*]]: tensor<2x16x2xf32>) {
// CHECK-NEXT:      %[[LOCAL:.*]] = sdy.reshard %[[ARG]] <@mesh, [{"b", "c"}, {}, {}]>
// CHECK-NEXT:      stablehlo.multiply %[[LOCAL]], %[[LOCAL]]
module @operand attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func public @main(%arg0: tensor<4x16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", "c"}, {}, {}]>}) -> tensor<2x32x2xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b", "c"}, {}, {}]>] out_shardings=[<@mesh, [{}, {"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<2x16x2xf32>) {
      %1 = stablehlo.multiply %arg1, %arg1 : tensor<2x16x2xf32>
      sdy.return %1 : tensor<2x16x2xf32>
    } : (tensor<4x16x2xf32>) -> tensor<2x32x2xf32>
    return %0 : tensor<2x32x2xf32>
  }
}

// -----

// The result: each manual part of 3 rows split by "b" (2 rows, then 1 and padding);
// the body sums over "a" first. Outside, the 6 rows go back onto "a","b" as a global
// sharding (tiles of 2: device (a=0,b=1) holds rows 2-3, not 3-5).
// CHECK-LABEL: module @result
// CHECK:         %[[M:.*]] = sdy.manual_computation({{.*}}) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"}
// CHECK:           sdy.return
// CHECK:         sdy.reshard %[[M]] <@mesh, [{"a", "b"}, {}]>
module @result attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func public @main(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a"} (%arg1: tensor<3x5xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<3x5xf32>) -> tensor<3x5xf32>
      %2 = stablehlo.sine %1 : tensor<3x5xf32>
      sdy.return %2 : tensor<3x5xf32>
    } : (tensor<6x5xf32>) -> tensor<6x5xf32>
    %3 = stablehlo.cosine %0 : tensor<6x5xf32>
    return %3 : tensor<6x5xf32>
  }
}

// -----

// Both, with two manual axes and a reduce over the
// uneven local dim inside, so the body really computes with the free axis split.
// CHECK-LABEL: module @both
// CHECK:         sdy.manual_computation({{.*}}) in_shardings=[<@mesh, [{"a", "c"}, {}]>] out_shardings=[<@mesh, [{"c", "a"}, {}]>] manual_axes={"a", "c"}
module @both attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func public @main(%arg0: tensor<12x6xf32>) -> tensor<12x6xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "c", "b"}, {}]>] out_shardings=[<@mesh, [{"c", "a", "b"}, {}]>] manual_axes={"a", "c"} (%arg1: tensor<3x6xf32>) {
      %c = stablehlo.constant dense<0.0> : tensor<f32>
      %r = stablehlo.reduce(%arg1 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<3x6xf32>, tensor<f32>) -> tensor<6xf32>
      %b = stablehlo.broadcast_in_dim %r, dims = [1] : (tensor<6xf32>) -> tensor<3x6xf32>
      %1 = stablehlo.subtract %arg1, %b : tensor<3x6xf32>
      sdy.return %1 : tensor<3x6xf32>
    } : (tensor<12x6xf32>) -> tensor<12x6xf32>
    return %0 : tensor<12x6xf32>
  }
}

// -----

// Even globally though not per manual part's share of all axes: 4 rows on "a","b"
// ("a" manual) are 2 per part, 1 per device either way: nothing to change.
// CHECK-LABEL: module @even
// CHECK:         sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}, {}]>]
// CHECK-NEXT:      stablehlo.negate %arg1
module @even attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func public @main(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a"} (%arg1: tensor<2x6xf32>) {
      %1 = stablehlo.negate %arg1 : tensor<2x6xf32>
      sdy.return %1 : tensor<2x6xf32>
    } : (tensor<4x6xf32>) -> tensor<4x6xf32>
    return %0 : tensor<4x6xf32>
  }
}
