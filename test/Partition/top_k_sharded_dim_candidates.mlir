// chlo.top_k along a dim sharded 8 ways (256 elements, 32 per device, k = 4): each
// device takes the top 4 of its 32, makes their indices global (plus its shard's
// offset), the candidates of all devices are all_gathered in shard order (4 x 8 per
// row) and the top 4 of those is the result: a stable sort by value, greater first,
// floats in total order, then the first 4, which is what chlo.top_k means (equal values
// by index: candidates come in index order). Values and indices travel in one
// all_gather (the values bitcast to i32 and stacked on the indices). 1.75 KiB per
// device, against 3.5 KiB to move the operand's dim whole (all_to_all) and its results
// back.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/Inputs/ties_and_nans.py %t.npz f32:8x256
// RUN: shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<8x32xf32>
// CHECK:         %[[V:.*]], %[[I:.*]] = chlo.top_k(%arg0, k = 4) : tensor<8x32xf32> -> (tensor<8x4xf32>, tensor<8x4xi32>)
// CHECK:         %[[OFF:.*]] = stablehlo.constant dense<[0, 32, 64, 96, 128, 160, 192, 224]> : tensor<8xi32>
// CHECK:         %[[GI:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<8x4xi32>
// CHECK-NEXT:    %[[VB:.*]] = stablehlo.bitcast_convert %[[V]] : (tensor<8x4xf32>) -> tensor<8x4xi32>
// CHECK:         %[[PACK:.*]] = stablehlo.concatenate {{.*}} -> tensor<2x8x4xi32>
// CHECK-NEXT:    %[[ALL:.*]] = "stablehlo.all_gather"(%[[PACK]]) <{all_gather_dim = 2 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>{{.*}} : (tensor<2x8x4xi32>) -> tensor<2x8x32xi32>
// CHECK:         %[[AV:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<8x32xi32>) -> tensor<8x32xf32>
// CHECK:         %[[AI:.*]] = stablehlo.reshape %{{.*}} : (tensor<1x8x32xi32>) -> tensor<8x32xi32>
// CHECK-NEXT:    %[[S:.*]]:2 = "stablehlo.sort"(%[[AV]], %[[AI]]) <{dimension = 1 : i64, is_stable = true}>
// CHECK:           stablehlo.compare GT, %{{.*}}, %{{.*}}, TOTALORDER
// CHECK:         %[[RV:.*]] = stablehlo.slice %[[S]]#0 [0:8, 0:4]
// CHECK-NEXT:    %[[RI:.*]] = stablehlo.slice %[[S]]#1 [0:8, 0:4]
// CHECK-NEXT:    return %[[RV]], %[[RI]] : tensor<8x4xf32>, tensor<8x4xi32>
func.func public @main(%a: tensor<8x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>})
    -> (tensor<8x4xf32>, tensor<8x4xi32>) {
  %v, %i = chlo.top_k(%a, k = 4) : tensor<8x256xf32> -> (tensor<8x4xf32>, tensor<8x4xi32>)
  return %v, %i : tensor<8x4xf32>, tensor<8x4xi32>
}
