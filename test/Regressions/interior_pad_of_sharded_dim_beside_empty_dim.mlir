// A pad with interior padding on a dim sharded 8 ways (shard offsets differ: each
// device pads wide and cuts its part out) whose operand has another dim of no elements
// padded to 4. The wide pad's type took 0 for that dim ("no elements, nothing padded"),
// where a pad of no elements is low + high long, and shardpy-to-local failed: "'stablehlo.pad'
// op inferred type(s) 'tensor<6x4x4xi32>' are incompatible with return type(s) of
// operation 'tensor<6x4x0xi32>'" (fuzz seed 10007498 of the 10,000-program run of
// 2026-11-29, the only partitioner error in it).
// RUN: shardpy-run %s --check | FileCheck %s
// CHECK: out0: int32[40, 4, 4] sum=4480 min=7 max=7
// CHECK: check: PASS
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func public @main(%arg0: tensor<16x4x0xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}, {}]>}) -> (tensor<40x4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}, {}]>}) {
  %c = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.pad %arg0, %c, low = [8, 0, 0], high = [1, 0, 4], interior = [1, 0, 0] : (tensor<16x4x0xi32>, tensor<i32>) -> tensor<40x4x4xi32>
  return %0 : tensor<40x4x4xi32>
}
