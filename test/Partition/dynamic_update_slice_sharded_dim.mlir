// Dynamic update slices into a buffer sharded on the updated dim (4 of 16 rows per
// device); the update stays whole on every device, the start is out of range on both
// sides (clamped to [0, 16 - size] on the GLOBAL value first). Each device writes the
// part of the window that falls in its rows: the update shifted into the shard's frame
// (a dynamic_slice of it padded with 3 = rows - 1 on both sides) and a select where the
// window covers the shard.
//   %0: 6 rows, may straddle two shards; dims 1 covered by the update (sharded alike).
//   %1: 2 x 3 window into a buffer sharded on rows only: its dim 1, partly updated
//       but not sharded, keeps the op's own window (read, merged, written back).
// No communication.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x4xf32>{{.*}}, %arg1: tensor<6x4xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[P:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [3, 0], high = [3, 0], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<12x4xf32>
// CHECK:         stablehlo.iota dim = 0 : tensor<4x4xi32>
// CHECK:         %[[U:.*]] = stablehlo.dynamic_slice %[[P]], {{.*}} sizes = [4, 4]
// CHECK:         %[[M:.*]] = stablehlo.select %{{.*}}, %[[U]], %arg0 : tensor<4x4xi1>, tensor<4x4xf32>
// CHECK:         stablehlo.dynamic_update_slice %arg0, %[[M]], %{{.*}}, %{{.*}} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
// CHECK:         %[[P2:.*]] = stablehlo.pad %arg3, {{.*}} -> tensor<8x3xf32>
// CHECK:         %[[U2:.*]] = stablehlo.dynamic_slice %[[P2]], {{.*}} sizes = [4, 3]
// CHECK:         %[[OLD:.*]] = stablehlo.dynamic_slice %arg2, {{.*}} sizes = [4, 3]
// CHECK:         %[[M2:.*]] = stablehlo.select %{{.*}}, %[[U2]], %[[OLD]] : tensor<4x3xi1>, tensor<4x3xf32>
// CHECK:         stablehlo.dynamic_update_slice %arg2, %[[M2]]
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%buf: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %rows: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %buf2: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %patch: tensor<2x3xf32>,
                       %s: tensor<i32>)
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %c14 = stablehlo.constant dense<-14> : tensor<i32>
  %m = stablehlo.multiply %s, %c5 : tensor<i32>
  %start = stablehlo.add %m, %c14 : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %c6 = stablehlo.constant dense<6> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %buf, %rows, %start, %zero : (tensor<16x8xf32>, tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
  %1 = stablehlo.dynamic_update_slice %buf2, %patch, %start, %c6 : (tensor<16x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}
