// Lines 1-2 and 59-63 of a hand-written swiglu module (not JAX output): its
// sdy.sharding_constraint ops lack the ": <tensor type>" suffix that the custom form needs.
module @jit_forward_and_backward attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
sdy.mesh @mesh = <["dp"=2, "tp"=2]>
func.func private @silu(%arg0: tensor<4x8x32xf32>) -> (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>) {
%0 = stablehlo.negate %arg0 : tensor<4x8x32xf32>
%1 = sdy.sharding_constraint %0 <@mesh, [{}, {"dp"}, {"tp"}]>
%2 = stablehlo.exponential %1 : tensor<4x8x32xf32>
%3 = sdy.sharding_constraint %2 <@mesh, [{}, {"dp"}, {"tp"}]>
}
}
