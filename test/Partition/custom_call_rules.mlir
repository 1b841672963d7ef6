// A custom call shardpy knows nothing about (no sdy.sharding_rule, a target not in its
// table) is computed replicated, with a warning: its operand is gathered and its result
// sliced back. One with a rule of its own is computed on shards as the rule allows:
// the batch factor stays sharded; a factor only the operand has (the kernel consumes
// it whole) is never computed sharded: its axes are gathered here (one all_gather of
// "y"; moving them onto the batch factor instead, an all_to_all, would move fewer bytes
// but a second collective to gather the result back to [{"x"}], slower by the cpu
// profile's latencies); a sharded reduction factor leaves a partial sum that an
// all_reduce finishes (Shardy's meaning of a custom rule's reduction factors).
// RUN: shardpy-opt %s --shardpy-insert-reshards --verify-diagnostics | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[K:.*]] = stablehlo.custom_call @my_kernel(%[[A]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
// CHECK-NEXT:    %[[K2:.*]] = sdy.reshard %[[K]] <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[B:.*]] = sdy.reshard %arg1 <@mesh, [{"x"}, {}, {}]> : tensor<8x16x32xf32>
// CHECK-NEXT:    %[[R2:.*]] = stablehlo.custom_call @my_reduction(%[[B]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, sdy.sharding_rule = {{.*}}}
// CHECK-NEXT:    %[[S:.*]] = stablehlo.custom_call @my_reduction(%arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced={"y"}>]>, sdy.sharding_rule = {{.*}}}
// CHECK-NEXT:    %[[S2:.*]] = sdy.all_reduce {"y"} %[[S]] out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
// CHECK-NEXT:    return %[[K2]], %[[R2]], %[[S2]]
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>},
                       %c: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
        tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-warning@+1 {{'stablehlo.custom_call' is computed replicated: its operands are gathered on every device and its result sliced}}
  %0 = stablehlo.custom_call @my_kernel(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // i: batch, j: consumed by the kernel (only in the operand), k: summed.
  %1 = stablehlo.custom_call @my_reduction(%b) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i]) {i=8, j=16, k=32} reduction={k}, custom>} : (tensor<8x16x32xf32>) -> tensor<8xf32>
  %2 = stablehlo.custom_call @my_reduction(%c) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i]) {i=8, j=16, k=32} reduction={k}, custom>} : (tensor<8x16x32xf32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>
}
