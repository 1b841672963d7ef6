// Found by test/fuzz (`run_fuzz.py --long --seed 200000 --disable known`: seed
// 209347), minimized. Was a wrong value (1 of 16 elements): a scatter-add into a
// [2,8] operand along dim 1 whose window dim 0 is sharded on "y" (the updates'
// sharding), so each device scatters into its row of a replicated operand, a
// dynamic_slice by partition id, with the indices as they are (not shifted: the
// scatter dim is whole). With an out-of-range index XLA:CPU (jaxlib 0.10.2) fuses the
// dynamic_slice into the scatter and applies the index to the unsliced array, as in
// fuzz_scatter_out_of_shard_into_dynamic_slice.mlir. Fixed: the barrier on the
// scatter's operands is put wherever the operand is sharded, not only where indices
// are shifted (lowering/indexing/scatter.py).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// IR: stablehlo.optimization_barrier
// IR: "stablehlo.scatter"
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<16xi32>, %arg1: tensor<16xi32>, %arg2: tensor<1xi32>, %arg3: tensor<2x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<2x8xf32> {
    %0 = stablehlo.compare GT, %arg0, %arg1, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %cst = stablehlo.constant dense<[0.000000e+00, -2.500000e-01, 2.500000e-01, -7.500000e-01, 2.000000e+00, -3.000000e+00, -2.000000e+00, 4.000000e+00, -7.500000e-01, -2.500000e-01, 3.500000e+00, -3.250000e+00, -2.500000e+00, -1.750000e+00, 3.500000e+00, -7.500000e-01]> : tensor<16xf32>
    %1 = stablehlo.select %0, %cst, %cst : tensor<16xi1>, tensor<16xf32>
    %2 = stablehlo.reshape %1 : (tensor<16xf32>) -> tensor<2x8xf32>
    %3 = stablehlo.reshape %arg2 : (tensor<1xi32>) -> tensor<1x1xi32>
    %4 = "stablehlo.scatter"(%2, %3, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %5 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<2x8xf32>, tensor<1x1xi32>, tensor<2x1xf32>) -> tensor<2x8xf32>
    return %4 : tensor<2x8xf32>
  }
}
