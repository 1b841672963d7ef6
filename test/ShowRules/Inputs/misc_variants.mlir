// Ops JAX rarely emits, for the agreement test (no FileCheck).
func.func @misc(%x: tensor<8x16xf32>, %u: tensor<4x2xui64>, %s: tensor<f32>, %p: tensor<i1>) {
  %0 = stablehlo.tuple %x, %s : tuple<tensor<8x16xf32>, tensor<f32>>
  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8x16xf32>, tensor<f32>>) -> tensor<8x16xf32>
  %2 = stablehlo.create_token : !stablehlo.token
  %3 = stablehlo.after_all %2 : !stablehlo.token
  %4 = stablehlo.replica_id : tensor<ui32>
  %5 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<8x16xf32>) -> tensor<i32>
  %6 = "stablehlo.cross-replica-sum"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %7 = stablehlo.bitcast_convert %u : (tensor<4x2xui64>) -> tensor<4x2x8xui8>
  %8 = stablehlo.select %p, %s, %s : tensor<i1>, tensor<f32>
  %9 = stablehlo.iota dim = 1 : tensor<8x16xi32>
  %10:2 = stablehlo.rng_bit_generator %u, algorithm = PHILOX : (tensor<4x2xui64>) -> (tensor<4x2xui64>, tensor<16xui32>)
  return
}
