// A dot whose contracting dim is sharded on "x" is partial along "x"; the function
// result asks for it unreduced on "x", and the value is also constrained onto one
// device (its only other user: @maximal's sharding goes to the value itself).
// Unreduced inference then put "x", an axis of @mesh, on the value's maximal sharding:
// `<@maximal, [{}, {}], unreduced={"x"}>`, which sdy's verifier rejects ("a maximal
// sharding can only have a sharding with rank 0 and no replicated or unreduced axes"):
// a partitioner error on fuzz seed 9407958 of the 10,000-program run of 2026-11-28
// (reduced by test/fuzz/reduce.py). A value's unreduced axes now come from its own
// mesh only.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS
module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  sdy.mesh @maximal = <[], device_ids=[0]>
  func.func public @main(%arg0: tensor<4x5x10xf32>, %arg1: tensor<1x10x5xf32>) -> (tensor<4x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
    %0 = stablehlo.iota dim = 0 : tensor<4x5x10xf32>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<4x5x10xf32>, tensor<4x5x10xf32>) -> tensor<4x5x10xi1>
    %2 = stablehlo.select %1, %arg0, %arg0 : tensor<4x5x10xi1>, tensor<4x5x10xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{?}, {}, {?}]> : tensor<4x5x10xf32>
    %4 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}, {"x"}]> : tensor<1x10x5xf32>
    %5 = stablehlo.dot_general %3, %4, contracting_dims = [1, 2] x [2, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x5x10xf32>, tensor<1x10x5xf32>) -> tensor<4x1xf32>
    %6 = sdy.sharding_constraint %5 <@maximal, []> : tensor<4x1xf32>
    return %5 : tensor<4x1xf32>
  }
}
