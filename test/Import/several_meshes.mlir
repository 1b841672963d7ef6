// Where no single device order and factorisation reproduces every tile assignment,
// the import derives more meshes rather than guess: devices=[2,3]<=[6] and
// devices=[3,2]<=[6] cut the 6 devices at 2 and at 3 (2 does not divide 3), and a
// device list that is no transposed iota needs device_ids. Shardings that can share
// a mesh with those device_ids join it (%d is %c with its tile dims transposed).
// RUN: shardpy-opt %s --shardpy-import | FileCheck %s

// CHECK:      sdy.mesh @mesh = <["axis_0"=2, "axis_1"=3]>
// CHECK-NEXT: sdy.mesh @mesh_1 = <["axis_0"=3, "axis_1"=2]>
// CHECK-NEXT: sdy.mesh @mesh_2 = <["axis_0"=2, "axis_1"=2], device_ids=[0, 3, 1, 2]>
// CHECK:      func.func @main(
// CHECK-SAME:   #sdy.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>
// CHECK-SAME:   #sdy.sharding<@mesh_1, [{"axis_0"}, {"axis_1"}]>
// CHECK-SAME:   #sdy.sharding<@mesh_2, [{"axis_0"}, {"axis_1"}]>
// CHECK-SAME:   #sdy.sharding<@mesh_2, [{"axis_1"}, {"axis_0"}]>
func.func @main(%a: tensor<6x6xf32> {mhlo.sharding = "{devices=[2,3]<=[6]}"},
                %b: tensor<6x6xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"},
                %c: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,2]0,3,1,2}"},
                %d: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,2]0,1,3,2}"})
    -> tensor<6x6xf32> {
  return %a : tensor<6x6xf32>
}
