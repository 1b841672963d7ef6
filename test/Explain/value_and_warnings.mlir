// --explain-value (issue 18, item 3): how one value got its sharding, with the
// conflict propagation resolved on the way (axis "b" wanted on dim 1 of %x and on dim
// 2 of %y: the add keeps it on dim 1, by op priority 0). The warnings (item 4): the
// cholesky, which has no way to compute on shards, is computed replicated, and its
// operand, sharded, is gathered whole for it; each once, with its line and what would
// avoid it. Checked on the mesh too.
//
// RUN: shardpy-run %s --check --explain --explain-value 28 --explain-value arg1 | FileCheck %s
// CHECK: all_gather {{.*}} operand of stablehlo.cholesky at {{.*}}value_and_warnings.mlir:29:8
// CHECK: needed by: needed stablehlo.cholesky at {{.*}}:29:8 [computed replicated: its operands are gathered on every device and its result sliced]
// CHECK: == 2 place(s) computed or gathered whole
// CHECK-NEXT: value_and_warnings.mlir:29:8: gathered whole: stablehlo.cholesky: operand 0, laid out <@mesh, [{"a"}, {"b"}, {}]>, is gathered whole on every device
// CHECK-NEXT: to avoid it: none at this op (stablehlo.cholesky is computed replicated)
// CHECK-NEXT: value_and_warnings.mlir:29:8: computed replicated: stablehlo.cholesky: computed whole on every device
// CHECK: == how 28 got its sharding (--explain-value)
// CHECK-NEXT: result 0 of stablehlo.add at {{.*}}value_and_warnings.mlir:28:8: <@mesh, [{"a", ?}, {"b", ?}, {?}]>
// CHECK-NEXT: propagated by stablehlo.add at {{.*}}:28:8 [user priority p0, op priority 0]
// CHECK-NEXT: conflict resolved at user priority p0, op priority 0: axis "b" wanted on operand 0 dim 1 and on operand 1 dim 2; the result keeps it on result 0 dim 1
// CHECK-NEXT: annotated by argument 0: <@mesh, [{"a"}, {"b"}, {}]>
// CHECK: == how arg1 got its sharding (--explain-value)
// CHECK-NEXT: arg1 of the entry function: <@mesh, [{}, {}, {"b"}]>
// CHECK: check: PASS

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<2x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}]>},
                %y: tensor<2x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"b"}]>})
    -> (tensor<2x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}, tensor<2x16x16xf32>) {
  %s = stablehlo.add %x, %y : tensor<2x16x16xf32>
  %c = stablehlo.cholesky %s, lower = true : tensor<2x16x16xf32>
  return %s, %c : tensor<2x16x16xf32>, tensor<2x16x16xf32>
}
