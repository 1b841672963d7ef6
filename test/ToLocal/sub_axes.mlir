// Collectives over sub-axes: on ["x"=2, "y"=4] (device 4x + y, y = 2a + b with
// "y":(1)2 = a, "y":(2)2 = b), gathering the minor sub-axis "y":(2)2 groups devices
// that differ only in b ([[0, 1], [2, 3], [4, 5], [6, 7]]); reducing over the major
// "y":(1)2 groups those differing only in a ([[0, 2], [1, 3], [4, 6], [5, 7]]).
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:  "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<2x16xf32>) -> tensor<4x16xf32>
// CHECK:       %[[P:.*]] = stablehlo.dot_general %arg1, %arg2
// CHECK-NEXT:  "stablehlo.all_reduce"(%[[P]]) <{{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y":(1)2}]>},
                       %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y":(1)2}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y":(1)2}, {}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {}]>}) {
  %0 = sdy.all_gather [{"y":(2)2}, {}] %a out_sharding=<@mesh_x2_y4, [{"y":(1)2}, {}]> : tensor<8x16xf32>
  %1 = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {}], unreduced={"y":(1)2}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.all_reduce {"y":(1)2} %1 out_sharding=<@mesh_x2_y4, [{}, {}]> : tensor<8x8xf32>
  return %0, %2 : tensor<8x16xf32>, tensor<8x8xf32>
}
