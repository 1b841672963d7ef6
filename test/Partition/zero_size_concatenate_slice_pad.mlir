// Windowed ops with empty operands or results: concatenate with an empty operand (along
// a sharded dim and along an unsharded one), slices to size zero of a sharded dim (no
// halo exchange: the window is empty), pad of an empty sharded dim (every position is
// padding: the padding value, no exchange) and reverse of an empty sharded dim (a
// collective_permute of empty shards).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[8, 4]
// EXEC: out1: float32[8, 4]
// EXEC: out2: float32[8, 0]
// EXEC: out3: float32[0, 4]
// EXEC: out4: float32[8, 4] sum=32 min=1 max=1
// EXEC: out5: float32[8, 0]
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-DAG:     stablehlo.concatenate %arg0, {{.*}} : (tensor<4x0xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-DAG:     stablehlo.slice %arg1 [0:4, 0:0] : (tensor<4x2xf32>) -> tensor<4x0xf32>
// CHECK-DAG:     stablehlo.slice %arg1 [0:0, 0:2] : (tensor<4x2xf32>) -> tensor<0x2xf32>
// CHECK-DAG:     stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
// CHECK-DAG:     "stablehlo.collective_permute"{{.*}} : (tensor<4x0xf32>) -> tensor<4x0xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %c: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<0x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.concatenate %a, %c, dim = 1 : (tensor<8x0xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.concatenate %c, %b, dim = 1 : (tensor<8x4xf32>, tensor<8x0xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.slice %c [0:8, 2:2] : (tensor<8x4xf32>) -> tensor<8x0xf32>
  %3 = stablehlo.slice %c [3:3, 0:4] : (tensor<8x4xf32>) -> tensor<0x4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %4 = stablehlo.pad %b, %one, low = [0, 1], high = [0, 3], interior = [0, 0] : (tensor<8x0xf32>, tensor<f32>) -> tensor<8x4xf32>
  %5 = stablehlo.reverse %b, dims = [0, 1] : tensor<8x0xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x0xf32>, tensor<0x4xf32>, tensor<8x4xf32>, tensor<8x0xf32>
}
