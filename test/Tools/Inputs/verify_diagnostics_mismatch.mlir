// Expectations that do not match what shardpy-opt reports (see verify_diagnostics.mlir).

// Expected, but nothing is wrong here.
func.func @nothing_wrong(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{this error does not happen}}
  return %arg0 : tensor<4xf32>
}

// -----

// Wrong, but not expected.
func.func @unexpected(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.bogus %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Expected one line off.
func.func @wrong_line(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{custom op 'stablehlo.bogus' is unknown}}
  %0 = stablehlo.bogus %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Expected with the wrong severity.
func.func @wrong_severity(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning@+1 {{custom op 'stablehlo.bogus' is unknown}}
  %0 = stablehlo.bogus %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fine(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
