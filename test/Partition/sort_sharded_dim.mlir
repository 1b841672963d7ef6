// A sort along a sharded dim: the sorted dim's axes move onto another dim that can take
// them ("y" from dim 1 onto dim 0, after "x": one all_to_all), each device sorts its
// whole rows, and the result moves back where its users want it (one all_to_all). The
// argsort shares the values' all_to_all and makes its iota directly in the moved
// layout. That is 192 B per device each way instead of an all_gather of 768 B. A 1-D
// sort has no other dim: it is gathered (all_gather), sorted on every device and each
// device keeps its part (a local dynamic_slice). Ties, NaNs, +-0, +-inf included.
// Ranked by bytes (%bytes_only): this pins a lowering (halo exchange, all_to_all,
// masked or split shards) that the shipped cpu profile takes only for larger
// shards than these, where one all_gather is faster (Partition/windowed_exchange_or_gather.mlir).
// RUN: %bytes_only shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: %python %S/Inputs/ties_and_nans.py %t.npz f32:8x64 f32:64
// RUN: %bytes_only shardpy-run %s --check --inputs %t.npz 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x16xf32>{{.*}}, %arg1: tensor<16xf32>
// CHECK:         %[[IN:.*]] = "stablehlo.all_to_all"(%arg0) <{{.*}}concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x16xf32>) -> tensor<1x64xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.sort"(%[[IN]]) <{dimension = 1 : i64, is_stable = true}>
// CHECK:         "stablehlo.all_to_all"(%[[S]]) <{{.*}}concat_dimension = 0 : i64{{.*}}split_dimension = 1 : i64}> : (tensor<1x64xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[IOTA:.*]] = stablehlo.iota dim = 1 : tensor<1x64xi32>
// CHECK-NEXT:    %[[AS:.*]]:2 = "stablehlo.sort"(%[[IN]], %[[IOTA]])
// CHECK:         "stablehlo.all_to_all"(%[[AS]]#1) <{{.*}}concat_dimension = 0 : i64{{.*}}split_dimension = 1 : i64}> : (tensor<1x64xi32>) -> tensor<4x16xi32>
// CHECK:         %[[G:.*]] = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>{{.*}} : (tensor<16xf32>) -> tensor<64xf32>
// CHECK-NEXT:    %[[S1:.*]] = "stablehlo.sort"(%[[G]])
// CHECK:         stablehlo.dynamic_slice %[[S1]], {{.*}} sizes = [16] : (tensor<64xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
func.func public @main(%a: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})
    -> (tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<8x64xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %lt = stablehlo.compare LT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %iota = stablehlo.iota dim = 1 : tensor<8x64xi32>
  %1:2 = "stablehlo.sort"(%a, %iota) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>, %li: tensor<i32>, %ri: tensor<i32>):
    %gt = stablehlo.compare GT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<8x64xf32>, tensor<8x64xi32>) -> (tensor<8x64xf32>, tensor<8x64xi32>)
  %2 = "stablehlo.sort"(%b) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %lt = stablehlo.compare LT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<64xf32>) -> tensor<64xf32>
  return %0, %1#1, %2 : tensor<8x64xf32>, tensor<8x64xi32>, tensor<64xf32>
}
