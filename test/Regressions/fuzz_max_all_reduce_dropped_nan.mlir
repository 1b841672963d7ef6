// Found by test/fuzz (seed 5001843, 2,000 programs from seed 5000000), minimized.
// Was a wrong answer, fixed by partition/collectives.py's ordered all_reduce: a float
// max (min) over a sharded dim is finished by an all_reduce, and XLA:CPU's all_reduce
// drops NaN (jax's own pmax of [nan, 1, 2, 3] is 3; XLA's partitioning of this module
// gives the same wrong answer), where stablehlo.maximum propagates it. The one-device
// program returns NaN; the partitioned one returned the largest other value. Now float
// max/min cross devices as integers in IEEE total order (NaN on top for max, at the
// bottom for min): the CHECKs pin the i32 all_reduces, execution the NaNs.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// CHECK-LABEL: func.func public @main(
// CHECK:       stablehlo.bitcast_convert %{{.*}} : (tensor<f32>) -> tensor<i32>
// CHECK:       "stablehlo.all_reduce"
// CHECK:         stablehlo.maximum %{{.*}}, %{{.*}} : tensor<i32>
// CHECK:       }) : (tensor<i32>) -> tensor<i32>
// CHECK:       "stablehlo.all_reduce"
// CHECK:         stablehlo.minimum %{{.*}}, %{{.*}} : tensor<i32>
// CHECK:       }) : (tensor<i32>) -> tensor<i32>
// EXEC: out0: float32[] sum=nan min=nan max=nan
// EXEC: out1: float32[] sum=nan min=nan max=nan
// EXEC: check: PASS

sdy.mesh @mesh = <["x"=4]>

func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<f32>, tensor<f32>) {
  // element 5 (on the third device) is sqrt(-1): NaN; the others are the input
  %i = stablehlo.iota dim = 0 : tensor<8xi32>
  %five = stablehlo.constant dense<5> : tensor<8xi32>
  %at = stablehlo.compare EQ, %i, %five, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %minus_one = stablehlo.constant dense<-1.0> : tensor<8xf32>
  %nan = stablehlo.sqrt %minus_one : tensor<8xf32>
  %x = stablehlo.select %at, %nan, %arg0 : tensor<8xi1>, tensor<8xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %min = stablehlo.reduce(%x init: %inf) applies stablehlo.minimum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %max, %min : tensor<f32>, tensor<f32>
}
