// Ops without a rule. Sources (constant, iota, partition_id) need none; region ops
// (while, case, if, optimization_barrier), sdy ops and terminators are handled by
// propagation itself; neither gets a warning. Any other op without a rule does. An op
// that already has a rule keeps it. rng_bit_generator has a rule: its state is blocked.
// RUN: shardpy-opt %s --verify-diagnostics --shardpy-show-rules | FileCheck %s

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func @sources(
func.func @sources() {
  // CHECK: stablehlo.constant
  // CHECK-NOT: sdy.sharding_rule
  %0 = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  // CHECK: stablehlo.iota
  // CHECK-NOT: sdy.sharding_rule
  %1 = stablehlo.iota dim = 0 : tensor<8x16xf32>
  // CHECK: stablehlo.partition_id
  // CHECK-NOT: sdy.sharding_rule
  %2 = stablehlo.partition_id : tensor<ui32>
  return
}

// CHECK-LABEL: func @regions(
func.func @regions(%x: tensor<8x16xf32>, %i: tensor<i32>, %p: tensor<i1>) {
  // CHECK: stablehlo.while
  %0:2 = stablehlo.while(%n = %i, %v = %x) : tensor<i32>, tensor<8x16xf32>
    cond {
      %c = stablehlo.compare LT, %n, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %w = stablehlo.negate %v : tensor<8x16xf32>
      stablehlo.return %n, %w : tensor<i32>, tensor<8x16xf32>
    }
  // CHECK: stablehlo.case
  %1 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<8x16xf32>
  }, {
    stablehlo.return %x : tensor<8x16xf32>
  }) : (tensor<i32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.if
  %2 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<8x16xf32>
  }, {
    stablehlo.return %x : tensor<8x16xf32>
  }) : (tensor<i1>) -> tensor<8x16xf32>
  // CHECK: stablehlo.optimization_barrier
  // CHECK-NOT: sdy.sharding_rule
  %3:2 = stablehlo.optimization_barrier %x, %i : tensor<8x16xf32>, tensor<i32>
  // CHECK: sdy.reshard
  // CHECK-NOT: sdy.sharding_rule
  %4 = sdy.reshard %x <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  return
}

// CHECK-LABEL: func @random(
func.func @random(%state: tensor<2xui64>) {
  // CHECK: stablehlo.rng_bit_generator{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=8, k=16} need_replication={i} blocked_propagation={i}>
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  return
}

// CHECK-LABEL: func @unknown(
func.func @unknown(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) {
  // CHECK: stablehlo.map
  // expected-warning@+1 {{no sharding rule for 'stablehlo.map'; propagation stops here}}
  %0 = "stablehlo.map"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func @existing_rule(
func.func @existing_rule(%x: tensor<8x16xf32>) {
  // CHECK: stablehlo.custom_call @my_kernel{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>
  %0 = stablehlo.custom_call @my_kernel(%x) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.negate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=16, k=16} need_replication={j, k}>
  %1 = stablehlo.negate %x {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=16, k=16} need_replication={j, k}>} : tensor<8x16xf32>
  return
}
