// A sharding group whose members arrive with different shardings (jax.shard_alike of
// values constrained differently) is no error, as in Shardy: one warning names the
// group, and each member gets an open sharding_constraint right after it, which takes
// its place in the group and in its other uses. Propagation gives the constraints one
// sharding (from both members where they do not conflict: here "y" from %b, whose
// constraint comes first, and "x" from %a), the members keep theirs, and the
// partitioner reshards between them. The same for op results. Members without
// a sharding, or with one that is open and empty everywhere, do not conflict: they
// take the group's (@open_member).
//
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-propagate | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}
// CHECK-NEXT:    %[[B:.*]] = sdy.sharding_constraint %arg1 <@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT:    %[[A:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT:    sdy.sharding_group %[[A]] group_id=0
// CHECK-NEXT:    sdy.sharding_group %[[B]] group_id=0
// CHECK-NEXT:    stablehlo.add %[[A]], %[[B]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
// EXEC: out0: max abs error 0 ok
// EXEC: check: PASS
sdy.mesh @mesh = <["x"=2, "y"=4]>
// expected-warning@+1 {{The initial operand shardings on the sharding groups of groupID: 0 do not match}}
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  sdy.sharding_group %a group_id = 0 : tensor<8x16xf32>
  sdy.sharding_group %b group_id = 0 : tensor<8x16xf32>
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @op_results(
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    %[[CN:.*]] = sdy.sharding_constraint %[[N]] <@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT:    %[[E:.*]] = stablehlo.exponential %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT:    %[[CE:.*]] = sdy.sharding_constraint %[[E]] <@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT:    sdy.sharding_group %[[CN]] group_id=3
// CHECK-NEXT:    sdy.sharding_group %[[CE]] group_id=3
// CHECK-NEXT:    return %[[CN]], %[[CE]]
func.func @op_results(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-warning@+1 {{The initial operand shardings on the sharding groups of groupID: 3 do not match}}
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.exponential %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
  sdy.sharding_group %0 group_id = 3 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id = 3 : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// CHECK-LABEL: func.func @open_member(
// CHECK-NEXT:    %[[C0:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]>
// CHECK-NEXT:    sdy.sharding_group %[[C0]] group_id=5
// CHECK-NEXT:    %[[C1:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]>
// CHECK-NEXT:    sdy.sharding_group %[[C1]] group_id=5
func.func @open_member(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {?}]> : tensor<8x16xf32>
  sdy.sharding_group %0 group_id = 5 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {?}]> : tensor<8x16xf32>
  sdy.sharding_group %1 group_id = 5 : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// A member whose dims are all open but that names replicated axes says something ("y"
// stays off it): it conflicts like any other sharding (before, the group sync let it
// pass and the graph then reported two shardings for one slot as an error).
// CHECK-LABEL: func.func @replicated_member(
// CHECK-NEXT:    sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]>
// CHECK-NEXT:    sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]>
// expected-warning@+1 {{The initial operand shardings on the sharding groups of groupID: 7 do not match}}
func.func @replicated_member(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"y"}>},
                             %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  sdy.sharding_group %a group_id = 7 : tensor<8x16xf32>
  sdy.sharding_group %b group_id = 7 : tensor<8x16xf32>
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
