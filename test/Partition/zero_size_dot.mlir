// dot_general with empty dims: a contracting dim of size zero gives zeros (the sum of
// nothing), sharded or not; a free dim of size zero gives an empty result. A partial
// sum of an empty value is reduced by an all_reduce on it (and a reduce_scatter).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[8, 4] sum=0 min=0 max=0
// EXEC: out1: float32[8, 4] sum=0 min=0 max=0
// EXEC: out2: float32[0, 4]
// EXEC: out3: float32[8, 0]
// EXEC: out4: float32[8, 0]
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK:         stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<4x0xf32>, tensor<0x4xf32>) -> tensor<4x4xf32>
// CHECK:         stablehlo.dot_general %arg2, %arg3, {{.*}} : (tensor<8x0xf32>, tensor<0x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    "stablehlo.all_reduce"
// CHECK:         }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK:         stablehlo.dot_general {{.*}} -> tensor<0x2xf32>
// CHECK:         stablehlo.dot_general {{.*}} -> tensor<8x0xf32>
// CHECK-NEXT:    "stablehlo.all_reduce"
// CHECK:         }) : (tensor<8x0xf32>) -> tensor<8x0xf32>
// CHECK:         stablehlo.dot_general {{.*}} -> tensor<8x0xf32>
// CHECK-NEXT:    "stablehlo.reduce_scatter"
// CHECK:         }) : (tensor<8x0xf32>) -> tensor<4x0xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<0x4xf32>,
                       %c: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %d: tensor<0x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %e: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %f: tensor<4x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<8x4xf32>,
        tensor<0x4xf32>,
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x0xf32>, tensor<0x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<8x0xf32>, tensor<0x4xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.dot_general %a, %e, contracting_dims = [0] x [0] : (tensor<8x0xf32>, tensor<8x4xf32>) -> tensor<0x4xf32>
  %3 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x0xf32>) -> tensor<8x0xf32>
  %4 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x0xf32>) -> tensor<8x0xf32>
  return %0, %1, %2, %3, %4 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<0x4xf32>, tensor<8x0xf32>, tensor<8x0xf32>
}
