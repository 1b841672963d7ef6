// XFAIL: *
// BUG (shardpy-run, not the partitioner): `func.func @main` without an explicit
// `public` (public by default in MLIR, as hand-written tests often write it) makes
// `shardpy-run --check` fail with "internal error: ValueError: Expected operation to
// have a symbol visibility." (runtime.wrap_per_device calls
// SymbolTable.set_visibility, which needs the attribute to exist). Partitioning it
// with shardpy-opt works.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>}) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
