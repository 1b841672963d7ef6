// sdy.all_to_all [{"x"}: 0->1] -> stablehlo.all_to_all splitting the local block along
// dim 1 into 2 pieces and concatenating the received pieces along dim 0, over the
// "x" groups: 4x16 -> 8x8 per device.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:  %[[A:.*]] = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x16xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  return %[[A]] : tensor<8x8xf32>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}) {
  %0 = sdy.all_to_all [{"x"}: 0->1] %a out_sharding=<@mesh_x2_y4, [{}, {"x"}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
