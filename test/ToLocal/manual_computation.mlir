// sdy.manual_computation's body is per-device code already: it is inlined in place, its
// block arguments replaced by the operand's local value (2x8: in_shardings [{"x"}, {}]
// on x=2), so no manual_computation is left and the body keeps its types. (shardpy-run
// checks a module with per-device code against XLA's SPMD partitioner, which rejects
// the sdy collectives here: the expected values come from the same program before
// insert-reshards, test/InsertReshards/manual_computation.mlir.)
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %S/../InsertReshards/manual_computation.mlir --reference --output %t.npz
// RUN: shardpy-run %s --expected %t.npz | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     sdy.manual_computation
// CHECK:         %[[IN:.*]] = "stablehlo.all_gather"(%{{.*}}) <{all_gather_dim = 1 : i64, {{.*}} : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[IN]] : tensor<2x8xf32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[N]], %[[IN]] : tensor<2x8xf32>
// CHECK:         %[[OUT:.*]] = stablehlo.dynamic_slice %[[M]], %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[OUT]] : tensor<2x4xf32>
// CHECK-NOT:     sdy.manual_computation
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
  %1 = sdy.all_gather [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
    %4 = stablehlo.negate %arg1 : tensor<2x8xf32>
    %5 = stablehlo.multiply %4, %arg1 : tensor<2x8xf32>
    sdy.return %5 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = sdy.all_slice [{}, {"y"}] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
