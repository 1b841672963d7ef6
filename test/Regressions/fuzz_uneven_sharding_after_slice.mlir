// Found by test/fuzz (~15% of the programs: slices, pads and concatenates to dims of
// size 1, 2 or 4), minimized.
// Was a bug, fixed in 2e2a98e (error on a valid program whose shardings are all even):
// shardpy-propagate carries the sharding of a sliced dim (16 elements on "x"=4) to the
// slice's result, a dim of 2 elements it does not divide (Shardy's default,
// non-conservative propagation does the same), and shardpy-to-local then refuses:
// "dimension 0 of tensor<2xf32> is sharded 4 ways by <@mesh, [{"x"}]>, which does not
// divide it; uneven shards are not partitioned yet". Same through pad and concatenate
// dims (operands of sizes 1, 2, 4 next to a sharded operand), and from there into dots,
// iotas, constants and callees. Either propagation should not shard a dim unevenly, or
// to-local should pad.
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<2xf32> {
  %0 = stablehlo.slice %arg0 [4:6] : (tensor<16xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
