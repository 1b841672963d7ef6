// bf16 end to end (issue 15): a dot whose contraction is sharded (bf16 partial sums
// all-reduced: rounded in another order than the one-device program's) and a
// scatter-add into a row-sharded operand.
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<16x256xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<256x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %t: tensor<16x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                       %i: tensor<6x1xi32>, %u: tensor<6x32xbf16>)
    -> (tensor<16x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<16x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x256xbf16>, tensor<256x32xbf16>) -> tensor<16x32xbf16>
  %c = stablehlo.constant dense<15> : tensor<6x1xi32>
  %z = stablehlo.constant dense<0> : tensor<6x1xi32>
  %j = stablehlo.clamp %z, %i, %c : tensor<6x1xi32>
  %1 = "stablehlo.scatter"(%t, %j, %u) ({
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.add %p, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<16x32xbf16>, tensor<6x1xi32>, tensor<6x32xbf16>) -> tensor<16x32xbf16>
  return %0, %1 : tensor<16x32xbf16>, tensor<16x32xbf16>
}
