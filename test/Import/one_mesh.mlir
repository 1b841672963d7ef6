// One mesh serves the whole module: its axes are the common refinement of every
// tile assignment's factors ([8], [2,4] and [4,2] give ["axis_0"=2, "axis_1"=2,
// "axis_2"=2]), so each sharding names runs of whole axes and no device_ids are needed.
// RUN: shardpy-opt %s --shardpy-import | FileCheck %s

// CHECK:      sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2, "axis_2"=2]>
// CHECK-NOT:  sdy.mesh
// CHECK:      func.func @main(
// CHECK-SAME:   [{"axis_0", "axis_1", "axis_2"}]>}
// CHECK-SAME:   [{"axis_0"}, {"axis_1", "axis_2"}]>}
// CHECK-SAME:   [{"axis_0", "axis_1"}, {"axis_2"}]>}
// CHECK-SAME:   [{"axis_1", "axis_2"}, {}]>}
func.func @main(%a: tensor<16xf32> {mhlo.sharding = "{devices=[8]<=[8]}"},
                %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"},
                %c: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"},
                %d: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
    -> tensor<16xf32> {
  return %a : tensor<16xf32>
}
