// --explain-value (issue 18, item 3): how one value got its sharding, with the
// conflict propagation resolved on the way (axis "b" wanted on dim 1 of %x and on dim
// 2 of %y: the add keeps it on dim 1, by op priority 0). The warnings (item 4): the
// rng_bit_generator, which has no way to compute on shards (its bits depend on the whole
// output shape), is computed replicated, and its state, sharded, is gathered whole for
// it; each once, with its line and what would avoid it. Checked on the mesh too.
//
// RUN: shardpy-run %s --check --explain --explain-value 30 --explain-value arg1 | FileCheck %s
// CHECK: all_gather {{.*}} operand of stablehlo.rng_bit_generator at {{.*}}value_and_warnings.mlir:31:10
// CHECK: needed by: needed stablehlo.rng_bit_generator at {{.*}}:31:10 [computed replicated: its bits depend on the whole output shape, so every device generates all of them and keeps its shard]
// CHECK: == 3 place(s) computed or gathered whole
// CHECK-NEXT: value_and_warnings.mlir:31:10: gathered whole: stablehlo.rng_bit_generator: operand 0, laid out <@mesh, [{"a"}]>, is gathered whole on every device
// CHECK-NEXT: to avoid it: none at this op (stablehlo.rng_bit_generator is computed replicated)
// CHECK-NEXT: value_and_warnings.mlir:32:3: gathered whole: func.return: operand 0, laid out <@mesh, [{"a"}, {"b"}, {}]>, is gathered whole on every device
// CHECK-NEXT: to avoid it: declare result 0 of the function sharded as <@mesh, [{"a"}, {"b"}, {}]> (its out_shardings / sdy.sharding) instead of replicated
// CHECK-NEXT: value_and_warnings.mlir:31:10: computed replicated: stablehlo.rng_bit_generator: computed whole on every device
// CHECK: == how 30 got its sharding (--explain-value)
// CHECK-NEXT: result 0 of stablehlo.add at {{.*}}value_and_warnings.mlir:30:8: <@mesh, [{"a", ?}, {"b", ?}, {?}]>
// CHECK-NEXT: propagated by stablehlo.add at {{.*}}:30:8 [user priority p0, op priority 0]
// CHECK-NEXT: conflict resolved at user priority p0, op priority 0: axis "b" wanted on operand 0 dim 1 and on operand 1 dim 2; the result keeps it on result 0 dim 1
// CHECK-NEXT: annotated by argument 0: <@mesh, [{"a"}, {"b"}, {}]>
// CHECK: == how arg1 got its sharding (--explain-value)
// CHECK-NEXT: arg1 of the entry function: <@mesh, [{}, {}, {"b"}]>
// CHECK: check: PASS

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<2x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}]>},
                %y: tensor<2x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"b"}]>}, %k: tensor<2xui64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
    -> (tensor<2x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}, tensor<2x16x16xui32>) {
  %s = stablehlo.add %x, %y : tensor<2x16x16xf32>
  %n:2 = stablehlo.rng_bit_generator %k, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x16x16xui32>)
  return %s, %n#1 : tensor<2x16x16xf32>, tensor<2x16x16xui32>
}
