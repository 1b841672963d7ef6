// Found by test/fuzz (zero_dims: seed 900304 of `run_fuzz.py --seed 900000 --count 2000
// --disable known`), minimized. The dot's result is partial over "x" (its contraction
// is sharded on "x") and wants its empty dim sharded on "x": one
// `sdy.reduce_scatter [{}, {"x"}]`. shardpy-to-local lowered it to a
// stablehlo.reduce_scatter along that dim, which StableHLO rejects ("result dimension
// size at scatter_dimension cannot be zero"). Empty shards have nothing to sum: the
// local result is an empty value of its own (no collective).
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-NOT:     reduce_scatter
// CHECK:         %[[E:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x0xf32>
// CHECK-NOT:     reduce_scatter
// CHECK:         return %[[E]] : tensor<8x0xf32>

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func public @main(%e: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %f: tensor<4x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x0xf32>) -> tensor<8x0xf32>
  return %0 : tensor<8x0xf32>
}
