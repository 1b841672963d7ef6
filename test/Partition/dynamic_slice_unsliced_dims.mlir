// Dynamic slices that compute on shards without communication:
//   %0 takes its sharded dim whole (the start of such a dim clamps to 0, globally and
//      on every shard alike): local slice sizes, the start of that dim is 0;
//   %1 slices a replicated operand whose result is wanted split on "x": each device
//      slices the whole window and keeps its block (an all_slice: a second
//      dynamic_slice, local).
// Start indices are clamped explicitly before the op: XLA (jaxlib 0.10.2) folds
// dynamic_slice(dynamic_slice(x, a), b) into one dynamic_slice with one clamp, which
// is wrong for an out-of-range `a` (here a = 30 .. 37 on a dim of 16).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: computed replicated
// EXEC:     check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<16x4xf32>{{.*}}, %arg1: tensor<16x8xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
// CHECK:         %[[LO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         %[[HI:.*]] = stablehlo.constant dense<4> : tensor<i32>
// CHECK:         %[[S:.*]] = stablehlo.clamp %[[LO]], %{{.*}}, %[[HI]] : tensor<i32>
// CHECK:         %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         stablehlo.dynamic_slice %arg0, %[[S]], %[[Z]], sizes = [12, 4] : (tensor<16x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x4xf32>
// CHECK:         %[[S1:.*]] = stablehlo.clamp
// CHECK:         %[[X:.*]] = stablehlo.dynamic_slice %arg1, %[[S1]], %{{.*}}, sizes = [12, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
// CHECK:         stablehlo.dynamic_slice %[[X]], {{.*}} sizes = [6, 8]
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|collective_permute|reduce_scatter)}}"
func.func public @main(%x: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                       %y: tensor<16x8xf32>,
                       %s: tensor<i32>)
    -> (tensor<12x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
        tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c30 = stablehlo.constant dense<30> : tensor<i32>
  %start = stablehlo.add %s, %c30 : tensor<i32>
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.dynamic_slice %x, %start, %c7, sizes = [12, 16] : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<12x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.dynamic_slice %y, %start, %c0, sizes = [12, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
  return %0, %1 : tensor<12x16xf32>, tensor<12x8xf32>
}
