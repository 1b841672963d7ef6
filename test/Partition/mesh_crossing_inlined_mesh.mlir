// Issue 20, second form: the call's result on an inlined mesh of 4 devices. The mesh
// is lifted to a symbol on import (@mesh: the first free name, as Shardy names them);
// the value is gathered on @m8, relabelled onto the smaller mesh (every device of it
// already holds the whole value: no data moves) and sliced there.
// RUN: shardpy-opt %s --shardpy-import | FileCheck %s --check-prefix=IMPORT
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(shardpy-import,shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives)' | FileCheck %s --check-prefix=SDY
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// IMPORT:      sdy.mesh @m8 = <["d"=2, "t"=4]>
// IMPORT-NEXT: sdy.mesh @mesh = <["d"=2, "t"=2]>
// IMPORT:      call @body(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {"t"}]>]>}

// SDY:         %[[G:.*]] = sdy.all_gather [{"d"}, {}] %{{.*}} out_sharding=<@m8, [{}, {}]>
// SDY-NEXT:    %[[R:.*]] = sdy.reshard %[[G]] <@mesh, [{}, {}]>
// SDY-NEXT:    sdy.all_slice [{"d"}, {"t"}] %[[R]] out_sharding=<@mesh, [{"d"}, {"t"}]>

sdy.mesh @m8 = <["d"=2, "t"=4]>
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m8, [{"d"}, {}]>}) -> tensor<8x16xf32> {
  %0 = call @body(%a) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["d"=2, "t"=2]>, [{"d"}, {"t"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func private @body(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.sine %x : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
