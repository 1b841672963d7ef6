// sdy.manual_computation: operands are resharded to its in_shardings in front of it and
// its results from its out_shardings to what their users want after it; its body is
// per-device code already and gets no reshard.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT:    %[[M:.*]] = sdy.manual_computation(%[[IN]]) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
// CHECK-NOT:       sdy.reshard
// CHECK:           sdy.return
// CHECK-NEXT:    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[OUT:.*]] = sdy.reshard %[[M]] <@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT:    return %[[OUT]]
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<2x8xf32>
    %2 = stablehlo.multiply %1, %arg1 : tensor<2x8xf32>
    sdy.return %2 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
