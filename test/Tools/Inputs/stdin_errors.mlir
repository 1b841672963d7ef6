// Input for stdin.mlir: one parse error and one verifier error, in two chunks.
func.func @parse_error(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{custom op 'stablehlo.bogus' is unknown}}
  %0 = stablehlo.bogus %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @verifier_error(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{unknown axis name: "y"}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
