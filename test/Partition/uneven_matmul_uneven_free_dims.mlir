// A matmul whose free dims are uneven (5 rows over "x"=2, 6 columns over "y"=4): the
// dims pass through, each device multiplies its padded blocks (3 x 8 by 8 x 2), no
// collectives and no masks.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     stablehlo.select
// CHECK:         stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<3x8xf32>, tensor<8x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<5x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x8xf32>, tensor<8x6xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
