// --explain-value by a result's name as JAX writes it (jax.result_info), by resultN, and
// by FILE:LINE: the gradient's layout comes from its result annotation (func.return);
// the product's "y" came to it through the gradient's dot (line 26) from that same
// annotation: the chain follows the axes each step added.
//
// RUN: shardpy-run %s --check --explain-value "result[1]['w']" --explain-value result0 --explain-value value_by_result_name.mlir:25 | FileCheck %s
// CHECK: == how result[1]['w'] got its sharding (--explain-value)
// CHECK-NEXT: result1 (result[1]['w']) of the entry function: <@mesh, [{?}, {"y", ?}]>
// CHECK-NEXT: propagated by func.return [the function's result sharding]
// CHECK-NEXT: annotated by a function result's sharding: <@mesh, [{}, {"y"}]>
// CHECK: == how result0 got its sharding (--explain-value)
// CHECK-NEXT: result0 (result[0]) of the entry function:
// CHECK: == how value_by_result_name.mlir:25 got its sharding (--explain-value)
// CHECK-NEXT: result 0 of stablehlo.dot_general at {{.*}}value_by_result_name.mlir:25:8: <@mesh, [{"x", ?}, {"y", ?}]>
// CHECK-NEXT: propagated by stablehlo.dot_general at {{.*}}value_by_result_name.mlir:26:8
// CHECK-NEXT: propagated by func.return [the function's result sharding]
// CHECK-NEXT: annotated by a function result's sharding: <@mesh, [{}, {"y"}]>
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %w: tensor<16x8xf32>)
    -> (tensor<8x8xf32> {jax.result_info = "result[0]"},
        tensor<16x8xf32> {jax.result_info = "result[1]['w']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %p = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %g = stablehlo.dot_general %a, %p, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %p, %g : tensor<8x8xf32>, tensor<16x8xf32>
}
