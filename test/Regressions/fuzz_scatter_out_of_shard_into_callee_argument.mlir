// Found by test/fuzz (the 10,000-program run, seed 100561), minimized.
// Was a wrong value (max abs error 12): like fuzz_scatter_out_of_shard_into_dynamic_slice
// but the scatter's operand is a callee's block argument, made in the caller by the
// reshard of a replicated value into "x" shards (20 over 8: uneven, a pad then a
// dynamic_slice by partition id). Once XLA inlines the call, XLA:CPU (jaxlib 0.10.2)
// fuses that dynamic_slice into the scatter and applies the out-of-shard indices
// to the unsliced array. Fixed by putting every operand of a scatter with shifted
// indices behind an optimization_barrier, block arguments included.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS
module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  func.func public @main(%arg0: tensor<20xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<4xi32>) -> tensor<20xi32> {
    %1 = call @callee0(%arg0) : (tensor<20xi32>) -> tensor<20xi32>
    %c = stablehlo.constant dense<[-5, 8, -5, -3]> : tensor<4xi32>
    %3 = stablehlo.reshape %c : (tensor<4xi32>) -> tensor<4x1xi32>
    %4 = "stablehlo.scatter"(%1, %3, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %5 = stablehlo.add %arg4, %arg5 : tensor<i32>
      stablehlo.return %5 : tensor<i32>
    }) : (tensor<20xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<20xi32>
    return %4 : tensor<20xi32>
  }
  func.func private @callee0(%arg1: tensor<20xi32>) -> tensor<20xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<1xi32>
    %2 = stablehlo.reshape %0 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<-8> : tensor<1xi32>
    %3 = "stablehlo.scatter"(%arg1, %2, %c) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %5 = stablehlo.add %arg2, %arg3 : tensor<i32>
      stablehlo.return %5 : tensor<i32>
    }) : (tensor<20xi32>, tensor<1x1xi32>, tensor<1xi32>) -> tensor<20xi32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{"x"}]> : tensor<20xi32>
    return %4 : tensor<20xi32>
  }
}
