// Found by test/fuzz (`run_fuzz.py --long --seed 300000 --disable known`: seed 305161),
// minimized. Was a wrong value (out0: max abs error 0.64): a 2x2 matrix made by
// reshaping a 4-element slice of an argument sharded on "a", its rows then split over
// "a", and a gather of column -3 (clamped to 0). shardpy's per-device program is right,
// but it reads each device's row with a dynamic_slice (offset 0 or 2 by partition id)
// and reshapes it for the gather: XLA:CPU (jaxlib 0.10.2) folds gather(reshape(
// dynamic_slice(x))) into one gather on x that loses the slice's start clamp and reads
// the neighbouring row's padding (the XLA bug of known issue indexed_dynamic_slices,
// here on a pair shardpy made). Fixed by an optimization_barrier between an indexing
// op (gather, dynamic_slice, scatter) and a dynamic_slice it reads through layout ops
// (partition/to_local.py, _shield_from_slice_folding).
// RUN: shardpy-opt --shardpy-partition %s | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR: %[[ROW:.*]] = stablehlo.dynamic_slice {{.*}} sizes = [2] : (tensor<4xf32>
// IR: %[[ROW2D:.*]] = stablehlo.reshape %[[ROW]]
// IR: %[[SHIELDED:.*]] = stablehlo.optimization_barrier %[[ROW2D]]
// IR: "stablehlo.gather"(%[[SHIELDED]],
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=4, "c"=1]>
  func.func public @main(%arg1: tensor<36xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<2x1xf32>) {
    %v4 = stablehlo.slice %arg1 [0:4] : (tensor<36xf32>) -> tensor<4xf32>
    %v7 = stablehlo.reshape %v4 : (tensor<4xf32>) -> tensor<2x2xf32>
    %v8 = sdy.sharding_constraint %v7 <@mesh, [{}, {}]> : tensor<2x2xf32>
    %v10 = stablehlo.constant dense<[-3]> : tensor<1xi32>
    %v11 = stablehlo.reshape %v10 : (tensor<1xi32>) -> tensor<1x1xi32>
    %v12 = "stablehlo.gather"(%v8, %v11) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1>}> : (tensor<2x2xf32>, tensor<1x1xi32>) -> tensor<2x1xf32>
    %v13 = sdy.sharding_constraint %v12 <@mesh, [{"a"}, {}]> : tensor<2x1xf32>
    return %v13 : tensor<2x1xf32>
  }
}
