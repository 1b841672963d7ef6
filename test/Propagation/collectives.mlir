// Collectives already in the input: all_reduce and collective_permute are
// elementwise; all_gather and all_to_all give the dims they change a factor each side.
// sdy collectives (sdy.all_gather) fix their result sharding; nothing flows through
// them. Same as the native sdy-propagation-pipeline (which also warns that
// sdy.all_gather has no rule; shardpy treats sdy collectives structurally).
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @all_reduce(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
// CHECK:         %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<{{\[\[}}0, 1{{\]\]}}> : tensor<1x2xi64>}> ({
// CHECK:         }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>
func.func @all_reduce(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @collective_permute(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
// CHECK:         %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 0{{\]\]}}> : tensor<2x2xi64>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
func.func @collective_permute(%x: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}) {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @all_gather(
// CHECK-SAME:    %arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}]>}
// CHECK-SAME:    -> (tensor<4x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}, {}]>})
// CHECK:         %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1{{\]\]}}> : tensor<1x2xi64>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}, {}]>]>
func.func @all_gather(%z: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}, {}]>}) -> tensor<4x16x16xf32> {
  %0 = "stablehlo.all_gather"(%z) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  return %0 : tensor<4x16x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @all_to_all(
// CHECK-SAME:    %arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}, {}]>})
// CHECK:         %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1{{\]\]}}> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 2 : i64}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}, {}]>]>
func.func @all_to_all(%z: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}, {"y"}]>}) -> tensor<8x8x8xf32> {
  %0 = "stablehlo.all_to_all"(%z) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8x16xf32>) -> tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func @sdy_all_gather_fixes_result(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// CHECK:         %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK:         %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @sdy_all_gather_fixes_result(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.all_gather [{}, {"y"}] %x out_sharding=<@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
