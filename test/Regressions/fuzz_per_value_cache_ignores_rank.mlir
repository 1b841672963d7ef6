// Found by test/fuzz (`run_fuzz.py --long --seed 0`: seed 6004), minimized.
// Guards: shardpy-propagate writes one #sdy.sharding_per_value per distinct list of
// result shardings, and results nothing reached are filled in replicated. The cache
// key ignored their rank, so the second call (results 16x16 and 32, the first
// unreached) reused the attribute of the first (a scalar and 16, the scalar
// unreached): "sharding doesn't match tensor rank: 0 != 2".
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<4xi32>, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16x16xf32>) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %c_0 = stablehlo.constant dense<-3> : tensor<i32>
    %0 = stablehlo.clamp %c, %arg0, %c_0 : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_1 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1 = stablehlo.reduce(%0 init: %c_1) applies stablehlo.minimum across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %2:2 = call @callee0(%1) : (tensor<i32>) -> (tensor<i32>, tensor<16xi32>)
    %c_2 = stablehlo.constant dense<[-7, -3, 0, 3, -4, -3, 3, 2]> : tensor<8xi32>
    %3 = stablehlo.dot_general %arg1, %arg2, batching_dims = [1] x [2], contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16x16xf32>) -> tensor<16x16xf32>
    %4:2 = call @callee2(%3, %c_2) : (tensor<16x16xf32>, tensor<8xi32>) -> (tensor<16x16xf32>, tensor<32xf32>)
    return %4#1 : tensor<32xf32>
  }
  func.func private @callee0(%arg0: tensor<i32>) -> (tensor<i32>, tensor<16xi32>) {
    %0 = stablehlo.negate %arg0 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}]> : tensor<16xi32>
    %3 = stablehlo.clamp %2, %2, %2 : tensor<16xi32>
    %4 = stablehlo.iota dim = 0 : tensor<16xi32>
    %5 = stablehlo.minimum %3, %4 : tensor<16xi32>
    return %0, %5 : tensor<i32>, tensor<16xi32>
  }
  func.func private @callee2(%arg0: tensor<16x16xf32>, %arg1: tensor<8xi32>) -> (tensor<16x16xf32>, tensor<32xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<16x16xf32>
    %1 = stablehlo.convert %arg1 : (tensor<8xi32>) -> tensor<8xf32>
    %2 = stablehlo.iota dim = 0 : tensor<8xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{?}]> : tensor<8xf32>
    %4 = stablehlo.iota dim = 0 : tensor<16xf32>
    %5 = stablehlo.concatenate %4, %3, %1, dim = 0 : (tensor<16xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<32xf32>
    return %0, %5 : tensor<16x16xf32>, tensor<32xf32>
  }
}
