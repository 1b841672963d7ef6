// A reduce with a self-combining reducer (maximum) over a sharded dim is computed on
// the local block and finished by a stablehlo.all_reduce with the same reducer over
// that dim's axes ("y": [[0, 1, 2, 3], [4, 5, 6, 7]]) -- not with a sum. The floats
// cross as i32 in IEEE total order, NaN on top (the runtime's float max all_reduce
// drops NaN: partition/collectives.py, test/Regressions/fuzz_max_all_reduce_dropped_nan.mlir).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:       %[[LOCAL:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[BITS:.*]] = stablehlo.bitcast_convert %[[LOCAL]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-DAG:   %[[C31:.*]] = stablehlo.constant dense<31> : tensor<4xi32>
// CHECK-DAG:   %[[LOW:.*]] = stablehlo.constant dense<2147483647> : tensor<4xi32>
// CHECK:       %[[SAME:.*]] = stablehlo.bitcast_convert %[[BITS]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[NAN:.*]] = stablehlo.compare NE, %[[SAME]], %[[SAME]], FLOAT
// CHECK-NEXT:  %[[SIGN:.*]] = stablehlo.shift_right_arithmetic %[[BITS]], %[[C31]]
// CHECK-NEXT:  %[[MASK:.*]] = stablehlo.and %[[SIGN]], %[[LOW]]
// CHECK-NEXT:  %[[KEY:.*]] = stablehlo.xor %[[BITS]], %[[MASK]]
// CHECK-NEXT:  %[[PICK:.*]] = stablehlo.select %[[NAN]], %[[LOW]], %[[KEY]]
// CHECK-NEXT:  %[[MAX:.*]] = "stablehlo.all_reduce"(%[[PICK]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT:  ^bb0(%[[L:.*]]: tensor<i32>, %[[R:.*]]: tensor<i32>):
// CHECK-NEXT:    %[[M:.*]] = stablehlo.maximum %[[L]], %[[R]] : tensor<i32>
// CHECK-NEXT:    stablehlo.return %[[M]] : tensor<i32>
// CHECK-NEXT:  }) : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:  %[[SIGN2:.*]] = stablehlo.shift_right_arithmetic %[[MAX]], %[[C31]]
// CHECK-NEXT:  %[[MASK2:.*]] = stablehlo.and %[[SIGN2]], %[[LOW]]
// CHECK-NEXT:  %[[BACK:.*]] = stablehlo.xor %[[MAX]], %[[MASK2]]
// CHECK-NEXT:  %[[OUT:.*]] = stablehlo.bitcast_convert %[[BACK]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:  return %[[OUT]] : tensor<4xf32>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}) {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
