// Not a test: input of sub_axes_two_decompositions.mlir (a sharding with sub-axes of two
// decompositions of "a" on one tensor is rejected with its location).
sdy.mesh @m6 = <["a"=6]>
func.func public @main(%x: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{"a":(1)2}, {"a":(3)2}]>}) -> tensor<6x6xf32> {
  return %x : tensor<6x6xf32>
}
