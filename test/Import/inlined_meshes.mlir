// shardpy-import lifts inlined meshes to sdy.mesh symbols, as Shardy's import does: an
// inlined mesh equal to a declared one (same axes, same device ids) reuses its symbol,
// others get `mesh`, `mesh_0`, ... (`maximal_mesh_<k>` for a maximal one), declared
// after the module's meshes; one symbol per distinct mesh. Every kind of sharding
// attribute: op shardings, function arguments and results, sharding_constraint,
// manual computations. The native sdy-lift-inlined-meshes gives the same names.
// RUN: shardpy-opt %s --shardpy-import | FileCheck %s
// RUN: shardpy-opt %s --shardpy-import --shardpy-import | FileCheck %s

// CHECK:      sdy.mesh @mesh_1 = <["d"=2, "t"=4]>
// CHECK-NEXT: sdy.mesh @mesh = <["d"=2, "t"=2]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["d"=2, "t"=2], device_ids=[3, 2, 1, 0]>
// CHECK-NEXT: sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK-NOT:  sdy.mesh
// CHECK:      func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"d"}, {}]>})
// CHECK-SAME:     -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>})
// CHECK:        stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {"t"}]>]>}
// CHECK:        stablehlo.sine %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"d"}, {"t"}]>]>}
// CHECK:        sdy.sharding_constraint %{{.*}} <@maximal_mesh_3, []>
// CHECK:        sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"d"}, {}]>] out_shardings=[<@mesh, [{"d"}, {}]>]
// CHECK:        stablehlo.cosine %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {"t"}]>]>}
sdy.mesh @mesh_1 = <["d"=2, "t"=4]>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["d"=2, "t"=4]>, [{"d"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["d"=2, "t"=2]>, [{"d"}, {}]>}) {
  %0 = stablehlo.sine %a {sdy.sharding = #sdy.sharding_per_value<[<mesh<["d"=2, "t"=2]>, [{"d"}, {"t"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.sine %0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["d"=2, "t"=2], device_ids=[3, 2, 1, 0]>, [{"d"}, {"t"}]>]>} : tensor<8x16xf32>
  %2 = sdy.sharding_constraint %1 <mesh<[], device_ids=[3]>, []> : tensor<8x16xf32>
  %3 = sdy.manual_computation(%2) in_shardings=[<mesh<["d"=2, "t"=2]>, [{"d"}, {}]>] out_shardings=[<mesh<["d"=2, "t"=2]>, [{"d"}, {}]>] manual_axes={"d"} (%x: tensor<4x16xf32>) {
    sdy.return %x : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = stablehlo.cosine %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {"t"}]>]>} : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
