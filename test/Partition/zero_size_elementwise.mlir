// Size-zero dims through the pipeline and the runtime: tensor<8x0xf32> sharded on its
// non-empty dim, on its empty dim, and replicated. Shards of an empty dim are empty
// (local 2x0 / 8x0); mixing two layouts reshards an empty value.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[8, 0]
// EXEC: out3: float32[8, 0]
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x0xf32>
// CHECK-SAME:    %arg1: tensor<8x0xf32>
// CHECK-SAME:    %arg2: tensor<8x0xf32>
// CHECK:         stablehlo.multiply {{.*}} : tensor<4x0xf32>
// CHECK:         stablehlo.exponential %arg1 : tensor<8x0xf32>
// CHECK:         stablehlo.negate %arg2 : tensor<8x0xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %c: tensor<8x0xf32>)
    -> (tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
        tensor<8x0xf32>,
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = stablehlo.multiply %a, %a : tensor<8x0xf32>
  %1 = stablehlo.exponential %b : tensor<8x0xf32>
  %2 = stablehlo.negate %c : tensor<8x0xf32>
  %3 = stablehlo.add %a, %b : tensor<8x0xf32>
  return %0, %1, %2, %3 : tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x0xf32>
}
