// A small argument broadcast to 10^12 float64 elements (7.28 TiB).
func.func public @main(%a: tensor<f64>) -> tensor<1000000x1000000xf64> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f64>) -> tensor<1000000x1000000xf64>
  return %0 : tensor<1000000x1000000xf64>
}
