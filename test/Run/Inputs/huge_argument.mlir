// 10^12 float32 elements (3.64 TiB) in and out: more than any test machine holds.
func.func public @main(%a: tensor<1000000x1000000xf32>, %b: tensor<4xf32>) -> tensor<1000000x1000000xf32> {
  %0 = stablehlo.negate %a : tensor<1000000x1000000xf32>
  return %0 : tensor<1000000x1000000xf32>
}
