// A while loop whose condition reads a sharded carry (loop while max(h) < 100): the
// carry stays sharded ([{"x"}, {"y"}]: 8x8 per device, in the loop's own signature),
// the condition's max over the shards is finished by an all_reduce (max, on the bits
// as i32 in IEEE total order: test/ToLocal/reduce_max.mlir) over all 8 devices, so every device sees the same predicate and they leave the loop together;
// the body is elementwise and needs nothing.
// RUN: shardpy-opt %s --shardpy-partition | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func public @main(
// CHECK-NEXT:    stablehlo.while(%[[H:.*]] = %arg0) : tensor<8x8xf32>
// CHECK-NEXT:    cond {
// CHECK:           %[[M:.*]] = stablehlo.reduce(%[[H]] init: {{.*}}) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      stablehlo.bitcast_convert %[[M]] : (tensor<f32>) -> tensor<i32>
// CHECK:           "stablehlo.all_reduce"(%{{.*}}) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]>
// CHECK:             stablehlo.maximum %{{.*}}, %{{.*}} : tensor<i32>
// CHECK:         } do {
// CHECK-NOT:     "stablehlo.{{(all_gather|all_reduce|all_to_all|reduce_scatter|collective_permute)}}"
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func public @main(%a: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.while(%h = %a) : tensor<16x32xf32>
    cond {
      %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %m = stablehlo.reduce(%h init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
      %lim = stablehlo.constant dense<100.0> : tensor<f32>
      %lt = stablehlo.compare LT, %m, %lim : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %two = stablehlo.constant dense<2.0> : tensor<f32>
      %b = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
      %e = stablehlo.abs %h : tensor<16x32xf32>
      %one = stablehlo.constant dense<1.0> : tensor<f32>
      %ob = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
      %e1 = stablehlo.add %e, %ob : tensor<16x32xf32>
      %n = stablehlo.multiply %e1, %b : tensor<16x32xf32>
      stablehlo.return %n : tensor<16x32xf32>
    }
  return %0 : tensor<16x32xf32>
}
