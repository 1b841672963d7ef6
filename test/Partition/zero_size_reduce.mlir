// Reductions over empty dims give the init value (sum 0, max -inf, an integer sum 0),
// sharded on the reduced empty dim or on the kept one; reducing the non-empty dim of an
// empty tensor gives an empty result.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[8] sum=0 min=0 max=0
// EXEC: out1: float32[8] sum=-inf min=-inf max=-inf
// EXEC: out2: float32[0]
// EXEC: out3: int32[] sum=0 min=0 max=0
// EXEC: out4: float32[8] sum=0 min=0 max=0
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x0xf32>
// CHECK-SAME:    %arg1: tensor<8x0xf32>
// CHECK-SAME:    %arg2: tensor<4x0xi32>
// CHECK:         stablehlo.reduce(%arg0 {{.*}} : (tensor<4x0xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK:         stablehlo.reduce(%arg1 {{.*}} applies stablehlo.maximum {{.*}} -> tensor<8xf32>
// CHECK:         "stablehlo.all_reduce"
// CHECK:           stablehlo.maximum

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>},
                       %i: tensor<8x0xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32>,
        tensor<0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<i32>,
        tensor<8xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %izero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x0xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.reduce(%b init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x0xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8x0xf32>, tensor<f32>) -> tensor<0xf32>
  %3 = stablehlo.reduce(%i init: %izero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x0xi32>, tensor<i32>) -> tensor<i32>
  %4 = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x0xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<0xf32>, tensor<i32>, tensor<8xf32>
}
