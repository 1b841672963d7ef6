// Found by a new-user battery: a "SAME" 3x5 convolution of 1-feature images whose W dim
// is sharded 4 ways ran 2.5x jax.jit's step. shardpy gathered W (12 KiB) and convolved
// the whole width on every device of the group; XLA exchanges 2-column halos with two
// collective_permutes and convolves its quarter. The plan choice charged a convolution
// only the memory it touches, so the gathered plan's 4x compute looked free. Fixed in
// the commit that added this test: a convolution's multiply-adds are charged at the
// rate the profile measured for its shape (output features x multiply-adds per output;
// XLA:CPU runs this one at ~0.05 G multiply-adds/s per device, all busy), and the halo
// exchange wins.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s --check-prefix=IR
// RUN: shardpy-run %s --check | FileCheck %s
// IR-NOT: all_gather
// IR: "stablehlo.collective_permute"
// IR: "stablehlo.collective_permute"
// IR-NOT: all_gather
// IR: stablehlo.convolution
// IR-SAME: (tensor<4x1x16x20xf32>, tensor<1x1x3x5xf32>) -> tensor<4x1x16x16xf32>
// CHECK: check: PASS

sdy.mesh @mesh = <["data"=2, "model"=4]>

func.func @main(%x: tensor<8x1x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {"model"}]>},
                %w: tensor<1x1x3x5xf32>)
    -> (tensor<8x1x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {"model"}]>}) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [2, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x1x16x64xf32>, tensor<1x1x3x5xf32>) -> tensor<8x1x16x64xf32>
  return %0 : tensor<8x1x16x64xf32>
}
