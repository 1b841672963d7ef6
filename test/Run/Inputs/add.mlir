module @add {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%a: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                         %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %0 = stablehlo.add %a, %b : tensor<4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}
