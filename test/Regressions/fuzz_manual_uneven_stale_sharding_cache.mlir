// Fuzz seed 790 (the manual feature, drawing free axes that split a manual part
// unevenly), reduced. The partitioner makes the boundary of such a manual computation
// even and puts the free axes back with new sdy.reshard ops (sharding/manual_layout.py);
// one of them was allocated where an erased op had been (the dead constraint %5,
// dropped earlier in the walk), and the sharding cache, keyed by value, answered with
// that op's rank-1 sharding: "IndexError: tuple index out of range" in the plan of the
// tanh (or, elsewhere, "operates on axis ... already bound by a parent
// sdy.manual_computation"). New values' shardings are now written to the cache.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS
module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<1x4x4xf32>) -> tensor<18x16xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<36x8xf32>
    %0 = stablehlo.tanh %arg0 : tensor<1x4x4xf32>
    %1 = stablehlo.dot_general %0, %0, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    %cst_0 = stablehlo.constant dense<[[5.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e+00]]> : tensor<4x4xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [1, 2] : (tensor<4x4xf32>) -> tensor<1x4x4xf32>
    %3 = stablehlo.add %1, %2 : tensor<1x4x4xf32>
    %4:2 = stablehlo.custom_call @lapack_spotrf_ffi(%3) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=1, j=4, k=4, l=4, m=4}, custom>} : (tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1xi32>)
    %5 = sdy.sharding_constraint %4#1 <@mesh, [{}]> : tensor<1xi32>
    %6 = sdy.manual_computation(%cst) in_shardings=[<@mesh, [{"y", "x"}, {}]>] out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"} (%arg1: tensor<18x8xf32>) {
      %7 = stablehlo.tanh %arg1 : tensor<18x8xf32>
      %8 = stablehlo.tanh %arg1 : tensor<18x8xf32>
      %9 = stablehlo.add %7, %8 : tensor<18x8xf32>
      sdy.return %9 : tensor<18x8xf32>
    } : (tensor<36x8xf32>) -> tensor<18x16xf32>
    return %6 : tensor<18x16xf32>
  }
}
