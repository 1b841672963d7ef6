// Issue 19: sub-axes of different decompositions of one axis never shard one tensor
// together. On "a"=6, "a":(1)2 (coordinate // 3) and "a":(3)2 (coordinate % 2) are not
// independent digits (devices 0 and 2 agree on both). When %x brings "a":(1)2 on dim 0
// and %y "a":(3)2 on dim 1, the add takes only one of them; the other operand is
// resharded. The program runs right on 6 devices.
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: not shardpy-opt %S/Inputs/sub_axes_two_decompositions_on_one_tensor.mlir --shardpy-propagate 2>&1 | FileCheck %s --check-prefix=ERR
// EXEC-NOT: MISMATCH
// EXEC:     check: PASS
// ERR-NOT:  Traceback
// ERR:      sub_axes_two_decompositions_on_one_tensor.mlir:4:1: error: invalid sharding <@m6, [{"a":(1)2}, {"a":(3)2}]>: axis "a":(3)2 in dimension 1 and "a":(1)2 are sub-axes of different decompositions of axis "a" and cannot shard one tensor together

sdy.mesh @m6 = <["a"=6]>

// CHECK-LABEL: func.func public @main
// CHECK-SAME:    %arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(1)2}, {}]>}
// CHECK-SAME:    %arg1: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{}, {"a":(3)2}]>}
// CHECK:         stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m6, [{"a":(1)2}, {}]>]>}
func.func public @main(%x: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(1)2, ?}, {?}]>},
                       %y: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{?}, {"a":(3)2, ?}]>}) -> tensor<6x6xf32> {
  %0 = stablehlo.add %x, %y : tensor<6x6xf32>
  %1 = stablehlo.multiply %0, %y : tensor<6x6xf32>
  %2 = stablehlo.dot_general %1, %x, contracting_dims = [1] x [0] : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
  return %2 : tensor<6x6xf32>
}
