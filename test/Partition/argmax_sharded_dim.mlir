// JAX's argmax along a dim sharded on "y" and argmin along a dim sharded on "x": a
// reduce over (values, iota) whose body picks a pair (NaN first, then the greater /
// smaller value, ties to the lower index). Each device reduces its shard (the iota
// is offset per shard, so indices are global), the per-shard pairs are all_gathered
// along a new leading dim (shard order; values and indices in one all_gather, the
// values bitcast to i32) and reduced again with the same body and init values: 4 + 4 B
// per row and device instead of gathering the operand. Exact on inputs
// full of ties, NaNs, +-0 and +-inf (the leftmost NaN, the lowest index of a tie).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/Inputs/ties_and_nans.py %t.npz f32:8x64
// RUN: shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
// CHECK:         %[[IOTA:.*]] = stablehlo.iota dim = 1 : tensor<4x16xi32>
// CHECK:         %[[GIOTA:.*]] = stablehlo.add %[[IOTA]], %{{.*}} : tensor<4x16xi32>
// CHECK:         %[[R:.*]]:2 = stablehlo.reduce(%arg0 init: %[[NINF:.*]]), (%[[GIOTA]] init: %[[ZERO:.*]]) across dimensions = [1] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK:         %[[V:.*]] = stablehlo.reshape %[[R]]#0 : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[I:.*]] = stablehlo.reshape %[[R]]#1 : (tensor<4xi32>) -> tensor<1x4xi32>
// CHECK-NEXT:    %[[VB:.*]] = stablehlo.bitcast_convert %[[V]] : (tensor<1x4xf32>) -> tensor<1x4xi32>
// CHECK:         %[[PACK:.*]] = stablehlo.concatenate {{.*}} -> tensor<2x1x4xi32>
// CHECK-NEXT:    %[[ALL:.*]] = "stablehlo.all_gather"(%[[PACK]]) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>{{.*}} : (tensor<2x1x4xi32>) -> tensor<2x4x4xi32>
// CHECK:         %[[AV:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<4x4xi32>) -> tensor<4x4xf32>
// CHECK:         %[[AI:.*]] = stablehlo.reshape %{{.*}} : (tensor<1x4x4xi32>) -> tensor<4x4xi32>
// CHECK-NEXT:    %[[F:.*]]:2 = stablehlo.reduce(%[[AV]] init: %[[NINF]]), (%[[AI]] init: %[[ZERO]]) across dimensions = [0] : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK:           stablehlo.compare GT
// CHECK:         stablehlo.reduce({{.*}} across dimensions = [0] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
// CHECK:         "stablehlo.all_gather"({{.*}}) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>{{.*}} : (tensor<2x1x16xi32>) -> tensor<2x2x16xi32>
// CHECK:         stablehlo.reduce({{.*}} across dimensions = [0] : (tensor<2x16xf32>, tensor<2x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
// CHECK:           stablehlo.compare LT
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"

func.func public @main(%a: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<64xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %iota = stablehlo.iota dim = 1 : tensor<8x64xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %ninf), (%iota init: %zero) across dimensions = [1] : (tensor<8x64xf32>, tensor<8x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
   reducer(%va: tensor<f32>, %vb: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
    %2 = stablehlo.compare GT, %va, %vb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %va, %va, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %va, %vb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %va, %vb : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  %iota0 = stablehlo.iota dim = 0 : tensor<8x64xi32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %1:2 = stablehlo.reduce(%a init: %pinf), (%iota0 init: %zero) across dimensions = [0] : (tensor<8x64xf32>, tensor<8x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
   reducer(%va: tensor<f32>, %vb: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
    %2 = stablehlo.compare LT, %va, %vb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %va, %va, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %va, %vb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %va, %vb : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  return %0#1, %1#1 : tensor<8xi32>, tensor<64xi32>
}
