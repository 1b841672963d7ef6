// A value moved from a 4-device second mesh onto all 8 devices: the devices of @mesh2
// keep their block, devices 4-7 get one by a collective_permute, and each device
// selects its buffer by partition id. The kept block was read as it was (a reshape),
// the permuted one as the permute's result; XLA:CPU fused the selection into the
// reduction of batch_norm_grad's grad_offset with the two operands in different
// layouts, and devices 4-7 summed in another order than devices 0-3: an output
// replicated over "a" whose replicas were 4 ulps apart (207.68475 on device 0,
// 207.68481 on device 4; the reduce's inputs bitwise equal on both). Fuzz seed 9602321,
// reduced. Now the kept block is an identity collective_permute too (pairs i -> i of
// the devices keeping theirs), so both buffers the selection reads are laid out alike,
// and the replicas are bit-identical (shardpy-run --check reports any divergence
// above the dtype's tolerance).
// RUN: shardpy-opt %s --shardpy-partition 2>/dev/null | FileCheck %s
// RUN: shardpy-run %s --check 2>/dev/null | FileCheck %s --check-prefix=EXEC
// CHECK-LABEL: func.func private @shardpy_batch_norm_grad
// CHECK: %[[GATHERED:.*]] = "stablehlo.all_gather"
// CHECK: %[[KEPT:.*]] = "stablehlo.collective_permute"(%[[GATHERED]])
// CHECK-SAME: source_target_pairs = dense<{{\[}}[0, 0], [1, 1], [2, 2], [3, 3]]>
// CHECK: %[[MOVED:.*]] = "stablehlo.collective_permute"(%[[GATHERED]])
// CHECK-SAME: source_target_pairs = dense<{{\[}}[2, 4], [1, 5], [3, 6], [0, 7]]>
// CHECK: stablehlo.select %{{.*}}, %[[MOVED]], %[[KEPT]]
// EXEC-NOT: replicas
// EXEC: check: PASS
module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  sdy.mesh @mesh2 = <["a"=2, "b"=2], device_ids=[2, 1, 3, 0]>
  func.func public @main(%arg0: tensor<3xui64>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<20x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{}, {}, {"b"}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", "b"}]>}) {
    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<20x4x8xui32>)
    %c = stablehlo.constant dense<255> : tensor<20x4x8xui32>
    %0 = stablehlo.and %output, %c : tensor<20x4x8xui32>
    %1 = stablehlo.convert %0 : (tensor<20x4x8xui32>) -> tensor<20x4x8xf32>
    %2 = stablehlo.tanh %1 : tensor<20x4x8xf32>
    %3 = stablehlo.iota dim = 0 : tensor<20x4x8xi32>
    %4 = stablehlo.convert %3 : (tensor<20x4x8xi32>) -> tensor<20x4x8xf32>
    %cst = stablehlo.constant dense<5.000000e-02> : tensor<20x4x8xf32>
    %5 = stablehlo.multiply %4, %cst : tensor<20x4x8xf32>
    %6 = stablehlo.add %2, %5 : tensor<20x4x8xf32>
    %output_0, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%6, %arg1, %arg2) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<20x4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<20x4x8xf32>, tensor<4xf32>, tensor<4xf32>)
    %7 = stablehlo.tanh %1 : tensor<20x4x8xf32>
    %8 = stablehlo.iota dim = 0 : tensor<20x4x8xi32>
    %9 = stablehlo.convert %8 : (tensor<20x4x8xi32>) -> tensor<20x4x8xf32>
    %cst_1 = stablehlo.constant dense<5.000000e-02> : tensor<20x4x8xf32>
    %10 = stablehlo.multiply %9, %cst_1 : tensor<20x4x8xf32>
    %11 = stablehlo.multiply %10, %10 : tensor<20x4x8xf32>
    %12 = stablehlo.add %7, %11 : tensor<20x4x8xf32>
    %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%6, %arg1, %batch_mean, %batch_var, %12) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<20x4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<20x4x8xf32>) -> (tensor<20x4x8xf32>, tensor<4xf32>, tensor<4xf32>)
    return %grad_operand, %grad_offset : tensor<20x4x8xf32>, tensor<4xf32>
  }
}
