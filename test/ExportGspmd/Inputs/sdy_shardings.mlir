// sdy shardings with sub-axes and device_ids (see ../roundtrip.test).
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @ids = <["a"=2, "b"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2, "x"}, {"y":(1)2}]>},
                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@ids, [{"a"}, {}]>},
                %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}
