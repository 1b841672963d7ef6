// shardpy-to-local gives every value the local shape of its sharding: @main's
// arguments and results (which keep their sdy.sharding, the runtime's contract), op
// results (which lose theirs) and a private callee's signature (which loses its sdy
// attributes). The module is marked shardpy.per_device with mhlo.num_partitions = the
// mesh's device count.
// RUN: shardpy-opt %s --shardpy-to-local | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// CHECK-LABEL: module attributes {mhlo.num_partitions = 8 : i32, shardpy.per_device} {
sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK:       func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}
// CHECK-SAME:    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}, tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[C:.*]] = call @f(%arg0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[D]], %[[C]] : tensor<4x8xf32>, tensor<4x16xf32>
// CHECK:       func.func private @f(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:    stablehlo.negate %arg0 : tensor<4x16xf32>
// CHECK-NOT:   sdy.sharding
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                       %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>})
    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) {
  %1 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = func.call @f(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1, %2 : tensor<8x32xf32>, tensor<8x16xf32>
}

func.func private @f(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) {
  %0 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
