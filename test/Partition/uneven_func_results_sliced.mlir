// Function boundaries with uneven shardings (7x5 over "x"=2 x "y"=3: blocks of 4x2,
// the last ones padded): shardpy-run feeds padded shards and assembles results by
// slicing the padding off; a result wanted whole is all_gathered dim by dim, each
// gathered dim trimmed to its global size (7, then 5) before the next gather (32 +
// 112 B/device); the column sums are all_reduced over "x" (8 B) and re-laid out
// from 5 on "y" to 5 on "x" through a gather of "y" (16 B): 168 B/device in all.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[7, 5]
// EXEC: out1: float32[7, 5]
// EXEC: out2: float32[5]
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x2xf32>
// CHECK-SAME:    -> (tensor<4x2xf32>{{.*}}, tensor<7x5xf32>{{.*}}, tensor<3xf32>
// CHECK:         %[[G0:.*]] = "stablehlo.all_gather"(%{{.*}}) <{all_gather_dim = 0 : i64{{.*}} : (tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %[[T0:.*]] = stablehlo.slice %[[G0]] [0:7, 0:2]
// CHECK-NEXT:    %[[G1:.*]] = "stablehlo.all_gather"(%[[T0]]) <{all_gather_dim = 1 : i64{{.*}} : (tensor<7x2xf32>) -> tensor<7x6xf32>
// CHECK-NEXT:    stablehlo.slice %[[G1]] [0:7, 0:5]

sdy.mesh @mesh = <["x"=2, "y"=3]>

func.func public @main(%a: tensor<7x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<7x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<7x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
        tensor<5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.multiply %a, %a : tensor<7x5xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<7x5xf32>, tensor<f32>) -> tensor<5xf32>
  return %0, %0, %1 : tensor<7x5xf32>, tensor<7x5xf32>, tensor<5xf32>
}
