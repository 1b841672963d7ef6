// Found by test/fuzz (`run_fuzz.py --long --seed 200000 --disable known`: seed
// 205108), minimized. Was an error on a valid program (no wrong value): a scatter-add
// whose indices are sharded on "a" is computed as a partial sum, its operand counted
// once (made unreduced on "a" by sdy.replicated_to_unreduced); here the operand is a
// block argument of a while nested in a while, and that inner while carries no
// sharding, so sdy's verifier rejected the collective: "'sdy.replicated_to_unreduced'
// op collective on operand without sharding". shardpy-reshard-to-collectives wrote an
// explicit replicated sharding on unannotated collective operands, but skipped block
// arguments. Fixed: a while's block argument gets it on the while's sdy.sharding (where
// sdy reads it), replicated for the other results (see
// test/ReshardToCollectives/unsharded_operands.mlir).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: check: PASS

module @fuzz attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2], device_ids=[1, 0, 3, 4, 7, 2, 5, 6]>
  func.func public @main(%arg0: tensor<10x1xf32>, %arg1: tensor<12xf32>) -> tensor<10x1xi32> {
    %0 = "stablehlo.sort"(%arg1) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %4 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<12xf32>) -> tensor<12xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %0) : tensor<i32>, tensor<12xf32>
    cond {
      %c_1 = stablehlo.constant dense<2> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %4:3 = stablehlo.while(%iterArg_3 = %c_1, %iterArg_4 = %arg1, %iterArg_5 = %iterArg) : tensor<i32>, tensor<12xf32>, tensor<i32>
      cond {
        %c_6 = stablehlo.constant dense<1> : tensor<i32>
        %6 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %6 : tensor<i1>
      } do {
        %6 = stablehlo.iota dim = 0 : tensor<8xi32>
        %7 = sdy.sharding_constraint %6 <@mesh, [{"a", ?}]> : tensor<8xi32>
        %8 = stablehlo.reshape %7 : (tensor<8xi32>) -> tensor<8x1xi32>
        %9 = stablehlo.iota dim = 0 : tensor<8xf32>
        %10 = "stablehlo.scatter"(%iterArg_4, %8, %9) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
        ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
          %16 = stablehlo.add %arg2, %arg3 : tensor<f32>
          stablehlo.return %16 : tensor<f32>
        }) : (tensor<12xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<12xf32>
        %11 = stablehlo.iota dim = 0 : tensor<12xf32>
        %12 = stablehlo.add %iterArg_4, %11 : tensor<12xf32>
        %cst = stablehlo.constant dense<-5.000000e+00> : tensor<f32>
        %cst_6 = stablehlo.constant dense<5.000000e+00> : tensor<f32>
        %13 = stablehlo.clamp %cst, %12, %cst_6 : (tensor<f32>, tensor<12xf32>, tensor<f32>) -> tensor<12xf32>
        %14 = stablehlo.maximum %iterArg_5, %iterArg_5 : tensor<i32>
        %c_7 = stablehlo.constant dense<1> : tensor<i32>
        %15 = stablehlo.add %iterArg_3, %c_7 : tensor<i32>
        stablehlo.return %15, %13, %14 : tensor<i32>, tensor<12xf32>, tensor<i32>
      }
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      stablehlo.return %5, %4#1 : tensor<i32>, tensor<12xf32>
    }
    %2 = stablehlo.iota dim = 1 : tensor<10x1xi32>
    %3:2 = "stablehlo.sort"(%arg0, %2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %4 = stablehlo.compare GT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<10x1xf32>, tensor<10x1xi32>) -> (tensor<10x1xf32>, tensor<10x1xi32>)
    return %3#1 : tensor<10x1xi32>
  }
}
