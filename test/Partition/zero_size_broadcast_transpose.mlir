// broadcast_in_dim to and from empty shapes and transpose of an empty tensor, sharded
// on the empty dim and on the other one.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[2, 8, 0]
// EXEC: out1: float32[0, 8]
// EXEC: out2: float32[8, 0]
// EXEC: out3: float32[0, 8]
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.broadcast_in_dim {{.*}} -> tensor<2x4x0xf32>
// CHECK:         stablehlo.transpose {{.*}} -> tensor<0x4xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %s: tensor<f32>)
    -> (tensor<2x8x0xf32>, tensor<0x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<0x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<8x0xf32>) -> tensor<2x8x0xf32>
  %1 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x0xf32>) -> tensor<0x8xf32>
  %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x0xf32>
  %3 = stablehlo.transpose %b, dims = [1, 0] : (tensor<8x0xf32>) -> tensor<0x8xf32>
  return %0, %1, %2, %3 : tensor<2x8x0xf32>, tensor<0x8xf32>, tensor<8x0xf32>, tensor<0x8xf32>
}
