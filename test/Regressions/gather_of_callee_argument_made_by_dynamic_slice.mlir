// Derived from fuzz seed 305161 (fuzz_gather_of_local_dynamic_slice_folded.mlir): the
// same XLA:CPU folding of gather(reshape(dynamic_slice(x))), with the dynamic_slice in
// the caller (shardpy's reshard of a replicated value to the callee argument's
// sharding) and the gather in the callee. XLA inlines the call and folds the pair,
// losing the slice's start clamp: without a barrier, device 1 read device 0's row
// (out0: max abs error 0.515). shardpy-to-local therefore shields an indexing op whose
// operand is a callee's or a region's argument too (only @main's inputs are known not
// to be slices).
// RUN: shardpy-opt --shardpy-partition %s | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR: func.func private @pick(%[[ARG:.*]]: tensor<2xf32>
// IR: %[[ROW:.*]] = stablehlo.reshape %[[ARG]]
// IR: %[[SHIELDED:.*]] = stablehlo.optimization_barrier %[[ROW]]
// IR: "stablehlo.gather"(%[[SHIELDED]],
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2]>
  func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<2x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
    %0 = call @pick(%arg0) : (tensor<4xf32>) -> tensor<2x1xf32>
    return %0 : tensor<2x1xf32>
  }
  func.func private @pick(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<2x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
    %r = stablehlo.reshape %arg0 : (tensor<4xf32>) -> tensor<2x2xf32>
    %c = stablehlo.constant dense<-3> : tensor<1x1xi32>
    %0 = "stablehlo.gather"(%r, %c) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1>}> : (tensor<2x2xf32>, tensor<1x1xi32>) -> tensor<2x1xf32>
    return %0 : tensor<2x1xf32>
  }
}
