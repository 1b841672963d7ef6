// Collectives already in the input: all_reduce, collective_permute and
// collective_broadcast keep every element in place (elementwise); all_gather,
// reduce_scatter and all_to_all change the size of some dims, where operands and
// results each have a factor of their own that must be whole.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

// CHECK-LABEL: func @collectives(
func.func @collectives(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<4x8x16xf32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j], [i, j]) {i=8, j=16}>
  %0:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  // CHECK: stablehlo.collective_permute{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %1 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.collective_broadcast{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
  %2 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l])->([i, k, l]) {i=4, j=8, k=16, l=16} need_replication={j, k}>
  %3 = "stablehlo.all_gather"(%z) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  // CHECK: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, k])->([j, k], [j, k]) {i=8, j=16, k=16} need_replication={i, j}>
  %4:2 = "stablehlo.all_gather"(%x, %y) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l])->([j, k, l]) {i=4, j=2, k=8, l=16} need_replication={i, j}>
  %5 = "stablehlo.reduce_scatter"(%z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8x16xf32>) -> tensor<2x8x16xf32>
  // CHECK: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l])->([j, k, m]) {i=4, j=8, k=8, l=16, m=8} need_replication={i, j, l, m}>
  %6 = "stablehlo.all_to_all"(%z) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8x16xf32>) -> tensor<8x8x8xf32>
  // CHECK: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, l]) {i=4, j=8, k=16, l=16} need_replication={k, l}>
  %7 = "stablehlo.all_to_all"(%z) {split_dimension = 2 : i64, concat_dimension = 2 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return
}
