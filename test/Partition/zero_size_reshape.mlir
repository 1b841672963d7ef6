// Reshapes of empty tensors: 8x0 -> 0x4 (its rule keeps every dim whole, as Shardy's:
// computed replicated, which moves nothing, and no warning) and 8x0 -> 2x4x0, sharded on the non-empty dim and
// on the empty one. Gathering along an empty dim is no collective at all (StableHLO
// rejects an all_gather along a dim of size zero).
// RUN: shardpy-opt %s --shardpy-partition 2>/dev/null | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: out0: float32[0, 4]
// EXEC: out1: float32[2, 4, 0]
// EXEC: out2: float32[0, 4]
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x0xf32>
// CHECK-SAME:    %arg1: tensor<8x0xf32>
// CHECK-NOT:     all_gather_dim = 1
// CHECK:         return

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<0x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
        tensor<2x4x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
        tensor<0x4xf32>) {
  %0 = stablehlo.reshape %a : (tensor<8x0xf32>) -> tensor<0x4xf32>
  %1 = stablehlo.reshape %a : (tensor<8x0xf32>) -> tensor<2x4x0xf32>
  %2 = stablehlo.reshape %b : (tensor<8x0xf32>) -> tensor<0x4xf32>
  return %0, %1, %2 : tensor<0x4xf32>, tensor<2x4x0xf32>, tensor<0x4xf32>
}
