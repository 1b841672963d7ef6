// Collectives on empty values forced by the boundary shardings: all_gather (along the
// non-empty dim), all_to_all (moving an axis onto the empty dim and off it), all_reduce
// of a partial sum and reduce_scatter, every one on a tensor with a dim of size zero.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK:         "stablehlo.all_to_all"{{.*}} : (tensor<4x0xf32>) -> tensor<8x0xf32>
// CHECK:         "stablehlo.all_to_all"{{.*}} : (tensor<8x0xf32>) -> tensor<4x0xf32>
// CHECK:         "stablehlo.all_reduce"
// CHECK:         }) : (tensor<8x0xf32>) -> tensor<8x0xf32>
// CHECK:         "stablehlo.reduce_scatter"
// CHECK:         }) : (tensor<8x0xf32>) -> tensor<4x0xf32>
// CHECK:         "stablehlo.all_gather"{{.*}}all_gather_dim = 0{{.*}} : (tensor<4x0xf32>) -> tensor<8x0xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%a: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %e: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %f: tensor<4x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
        tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.negate %a : tensor<8x0xf32>
  %1 = stablehlo.abs %a : tensor<8x0xf32>
  %2 = stablehlo.sine %b : tensor<8x0xf32>
  %3 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x0xf32>) -> tensor<8x0xf32>
  %4 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x0xf32>) -> tensor<8x0xf32>
  return %0, %1, %2, %3, %4 : tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x0xf32>
}
