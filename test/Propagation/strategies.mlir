// The strategies of Shardy's hierarchy, one module where they all differ:
//   basic        only axes every tensor of an op agrees on: a conflict between
//                factors (the same axis wanted by two dims) moves nothing, and closed
//                empty dims of operands block too;
//   aggressive   a conflict between factors goes to the factor whose source tensor is
//                largest (@conflict_across_factors: the 16x32 rhs wins);
//   op-priority  aggressive, but pass-through ops first (@pass_through_ops_first: the
//                add's sharding reaches the broadcast before the broadcast's own),
//                then pass-through factors of all ops with broadcasts only backwards
//                (@broadcast_only_backward_at_level_1: the dot's "y" reaches the
//                broadcast result before the broadcast can push its "x" forward);
//   user-priority (the default) op-priority once per user priority, p0 before p1
//                (@user_priorities: {"x"}p0 on dim 1 wins over {"x"}p1 on dim 0;
//                @user_priorities_same_dim: {"y"}p0 beats {"x"}p1); the other
//                strategies ignore priorities.
// Options go after '=' (or in braces in --pass-pipeline). Each strategy agrees with
// the native standalone pass of the same name (sdy-basic-propagate,
// sdy-aggressive-propagate, sdy-op-priority-propagate, sdy-user-priority-propagate,
// compared with close-shardings=false since those do not close), and the default
// with the native sdy-propagation-pipeline.
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate=strategy=basic | FileCheck %s --check-prefix=BASIC
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate=strategy=aggressive | FileCheck %s --check-prefix=AGGR
// RUN: shardpy-opt %s --split-input-file --pass-pipeline='builtin.module(shardpy-propagate{strategy=op-priority})' | FileCheck %s --check-prefix=OPPRI
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate | FileCheck %s --check-prefix=USER
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate=strategy=user-priority | FileCheck %s --check-prefix=USER
// RUN: shardpy-opt %s --split-input-file --pass-pipeline='builtin.module(shardpy-propagate{strategy=user-priority close-shardings=true})' | FileCheck %s --check-prefix=USER

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// BASIC-LABEL: func @conflict_across_factors(
// BASIC-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// BASIC-SAME:    %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// BASIC-SAME:    -> tensor<8x32xf32>
// BASIC:         %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// AGGR-LABEL: func @conflict_across_factors(
// AGGR-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// AGGR-SAME:    %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// AGGR-SAME:    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
// AGGR:         %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
// OPPRI-LABEL: func @conflict_across_factors(
// OPPRI-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// OPPRI-SAME:    %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// OPPRI-SAME:    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
// OPPRI:         %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
// USER-LABEL: func @conflict_across_factors(
// USER-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// USER-SAME:    %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// USER-SAME:    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
// USER:         %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
func.func @conflict_across_factors(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
                                   %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// BASIC-LABEL: func @pass_through_ops_first(
// BASIC-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// BASIC-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// BASIC-SAME:    -> tensor<8x16xf32>
// BASIC:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
// BASIC:         %1 = stablehlo.add %0, %arg1 : tensor<8x16xf32>
// AGGR-LABEL: func @pass_through_ops_first(
// AGGR-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// AGGR-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// AGGR-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
// AGGR:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
// AGGR:         %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
// OPPRI-LABEL: func @pass_through_ops_first(
// OPPRI-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// OPPRI-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// OPPRI-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// OPPRI:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// OPPRI:         %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// USER-LABEL: func @pass_through_ops_first(
// USER-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// USER-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// USER-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// USER:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// USER:         %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
func.func @pass_through_ops_first(%s: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>},
                                  %p: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %0, %p : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// BASIC-LABEL: func @broadcast_only_backward_at_level_1(
// BASIC-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// BASIC-SAME:    %arg1: tensor<8x4xf32>)
// BASIC-SAME:    -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
// BASIC:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// BASIC:         %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// AGGR-LABEL: func @broadcast_only_backward_at_level_1(
// AGGR-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// AGGR-SAME:    %arg1: tensor<8x4xf32>)
// AGGR-SAME:    -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
// AGGR:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// AGGR:         %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// OPPRI-LABEL: func @broadcast_only_backward_at_level_1(
// OPPRI-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// OPPRI-SAME:    %arg1: tensor<8x4xf32>)
// OPPRI-SAME:    -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
// OPPRI:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// OPPRI:         %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// USER-LABEL: func @broadcast_only_backward_at_level_1(
// USER-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>}
// USER-SAME:    %arg1: tensor<8x4xf32>)
// USER-SAME:    -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
// USER:         %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// USER:         %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
func.func @broadcast_only_backward_at_level_1(%s: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}]>},
                                              %w: tensor<8x4xf32>)
    -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}) {
  %0 = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<16xf32>) -> tensor<16x8xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// BASIC-LABEL: func @user_priorities(
// BASIC-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// BASIC-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// BASIC-SAME:    -> tensor<8x16xf32>
// BASIC:         %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
// AGGR-LABEL: func @user_priorities(
// AGGR-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// AGGR-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// AGGR-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// AGGR:         %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// OPPRI-LABEL: func @user_priorities(
// OPPRI-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// OPPRI-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// OPPRI-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
// OPPRI:         %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// USER-LABEL: func @user_priorities(
// USER-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// USER-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>}
// USER-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}]>})
// USER:         %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"x"}]>]>
func.func @user_priorities(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}p1, {}]>},
                           %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"x"}p0]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// BASIC-LABEL: func @user_priorities_same_dim(
// BASIC-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// BASIC-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// BASIC-SAME:    -> tensor<8x16xf32>
// BASIC:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// BASIC:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// BASIC:         %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
// AGGR-LABEL: func @user_priorities_same_dim(
// AGGR-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// AGGR-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// AGGR-SAME:    -> tensor<8x16xf32>
// AGGR:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// AGGR:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// AGGR:         %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
// OPPRI-LABEL: func @user_priorities_same_dim(
// OPPRI-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// OPPRI-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// OPPRI-SAME:    -> tensor<8x16xf32>
// OPPRI:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {}]>]>
// OPPRI:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// OPPRI:         %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
// USER-LABEL: func @user_priorities_same_dim(
// USER-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>}
// USER-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>}
// USER-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y"}, {}]>})
// USER:         %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// USER:         %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
// USER:         %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"y"}, {}]>]>
func.func @user_priorities_same_dim(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x", ?}p1, {?}]>},
                                    %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"y", ?}p0, {?}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %a : tensor<8x16xf32>
  %1 = stablehlo.negate %b : tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
