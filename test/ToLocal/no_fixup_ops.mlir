// Ops that compute on shards as they are (broadcast_in_dim, transpose, reshape,
// convert, select, clamp, compare and the elementwise family: add, multiply, ...) get
// no fix-up: only their types shrink to the local shape of their sharding (4x8 on x=2,
// y=2 is 2x4; the reshape's 2x2x8 on [{"x"}, {}, {"y"}] is 1x2x4), and scalars stay
// scalars.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4xf32> {{.*}}, %arg1: tensor<2x4xf32> {{.*}}, %arg2: tensor<4x2xf32> {{.*}}, %arg3: tensor<f32>, %arg4: tensor<f32>)
// CHECK-SAME:    -> (tensor<2x4xbf16> {{.*}}, tensor<1x2x4xf32> {{.*}})
// CHECK-NEXT:    %[[BC:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[TR:.*]] = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[BC]], %[[TR]] : tensor<2x4xf32>
// CHECK-NEXT:    %[[MUL:.*]] = stablehlo.multiply %[[ADD]], %arg1 : tensor<2x4xf32>
// CHECK-NEXT:    %[[CMP:.*]] = stablehlo.compare GT, %[[MUL]], %arg1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT:    %[[SEL:.*]] = stablehlo.select %[[CMP]], %[[MUL]], %arg1 : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK-NEXT:    %[[CL:.*]] = stablehlo.clamp %arg3, %[[SEL]], %arg4 : (tensor<f32>, tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[CV:.*]] = stablehlo.convert %[[CL]] : (tensor<2x4xf32>) -> tensor<2x4xbf16>
// CHECK-NEXT:    %[[RS:.*]] = stablehlo.reshape %[[CL]] : (tensor<2x4xf32>) -> tensor<1x2x4xf32>
// CHECK-NEXT:    return %[[CV]], %[[RS]] : tensor<2x4xbf16>, tensor<1x2x4xf32>
func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg3: tensor<f32>, %arg4: tensor<f32>) -> (tensor<4x8xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<2x2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.transpose %arg2, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %3 = stablehlo.multiply %2, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %4 = stablehlo.compare GT, %3, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %5 = stablehlo.select %4, %3, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x8xi1>, tensor<4x8xf32>
  %6 = stablehlo.clamp %arg3, %5, %arg4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %7 = stablehlo.convert %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %8 = stablehlo.reshape %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<4x8xf32>) -> tensor<2x2x8xf32>
  return %7, %8 : tensor<4x8xbf16>, tensor<2x2x8xf32>
}
