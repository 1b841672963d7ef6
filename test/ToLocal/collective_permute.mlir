// sdy.collective_permute -> stablehlo.collective_permute with (sender, receiver) pairs:
// dim 0 sharded on ("x","y") puts block 4x+y on device d = 4x+y; on ("y","x") device d
// needs block 2y+x, which device 2y+x holds. Devices 0 and 7 keep their block.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:  %[[P:.*]] = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 0], [2, 1], [4, 2], [6, 3], [1, 4], [3, 5], [5, 6], [7, 7]]> : tensor<8x2xi64>}> : (tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  return %[[P]] : tensor<2x16xf32>
func.func public @main(%a: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", "y"}, {}]>})
    -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", "x"}, {}]>}) {
  %0 = sdy.collective_permute %a out_sharding=<@mesh_x2_y4, [{"y", "x"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
