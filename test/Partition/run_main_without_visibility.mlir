// shardpy-run accepts `func.func @main` without an explicit visibility (public by
// default in MLIR, as hand-written modules often write it).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh_x2 = <["x"=2]>

func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2, [{"x"}, {}]>}) {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
