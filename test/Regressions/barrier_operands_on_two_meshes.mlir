// An optimization_barrier whose operands lie on two meshes (issue 16: the partitioned
// IR failed verification, "requires the same type for operand and result"): each
// operand keeps its own mesh through the barrier, the add after it reshards one of them,
// and the program matches one device.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// CHECK: stablehlo.optimization_barrier %arg0, %arg1 : tensor<2x4xf32>, tensor<8x2xf32>
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

module @barrier_meshes {
  sdy.mesh @a = <["x"=4]>
  sdy.mesh @b = <["y"=2]>
  func.func public @main(%p: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}, {}]>},
                         %q: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@b, [{}, {"y"}]>})
      -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %r:2 = stablehlo.optimization_barrier %p, %q : tensor<8x4xf32>, tensor<8x4xf32>
    %s = stablehlo.add %r#0, %r#1 : tensor<8x4xf32>
    return %s, %r#1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}
