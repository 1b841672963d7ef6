// A mesh of 100,000 devices: more than XLA:CPU runs a program on.
sdy.mesh @mesh = <["x"=100000]>
func.func public @main(%a: tensor<100000xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<100000xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.negate %a : tensor<100000xf32>
  return %0 : tensor<100000xf32>
}
