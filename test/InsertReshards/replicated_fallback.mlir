// Ops that shardpy-to-local cannot compute on shards (here sort and fft) are
// computed whole on every device: every operand is resharded to replicated, the result
// is replicated and then resharded to its propagated sharding. Correct, never wrong, but
// it costs communication, so each such op name gets one warning at the op.
// RUN: shardpy-opt %s --shardpy-insert-reshards --verify-diagnostics | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-DAG: warning: 'stablehlo.sort' is computed replicated
// EXEC-DAG: warning: 'stablehlo.fft' is computed replicated
// EXEC-DAG: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    %[[A:.*]] = sdy.reshard %arg0 <@mesh_x2_y4, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.sort"(%[[A]])
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {}]>]>}
// CHECK-NEXT:    %[[S2:.*]] = sdy.reshard %[[S]] <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[T:.*]] = sdy.reshard %arg1 <@mesh_x2_y4, [{}, {}]> : tensor<4x8xcomplex<f32>>
// CHECK-NEXT:    %[[G:.*]] = stablehlo.fft %[[T]], type = FFT, length = [8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {}]>]>}
// CHECK-NEXT:    %[[G2:.*]] = sdy.reshard %[[G]] <@mesh_x2_y4, [{"x"}, {}]> : tensor<4x8xcomplex<f32>>
// CHECK-NEXT:    return %[[S2]], %[[G2]]
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>},
                       %signal: tensor<4x8xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
        tensor<4x8xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) {
  // expected-warning@+1 {{'stablehlo.sort' is computed replicated: its operands are gathered on every device and its result sliced}}
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %lt = stablehlo.compare LT, %l, %r : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-warning@+1 {{'stablehlo.fft' is computed replicated: its operands are gathered on every device and its result sliced}}
  %1 = stablehlo.fft %signal, type = FFT, length = [8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>} : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  return %0, %1 : tensor<8x16xf32>, tensor<4x8xcomplex<f32>>
}
