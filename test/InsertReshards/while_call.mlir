// Values entering a while loop or a call take the sharding on the other side: a while
// operand, and the body's returned value, are resharded to the carry's sharding (the
// loop's result sharding); a call
// operand to the callee's argument sharding, and a call result from the callee's
// result sharding to the one its users were given.
// RUN: shardpy-opt %s --shardpy-insert-reshards | FileCheck %s
// RUN: shardpy-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

sdy.mesh @mesh_x2_y4 = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func public @main(
// CHECK:         %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[IN:.*]] = sdy.reshard %arg0 <@mesh_x2_y4, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %[[C0]], %[[X:.*]] = %[[IN]])
// CHECK:         %[[X2:.*]] = sdy.reshard %[[X]] <@mesh_x2_y4, [{"x"}, {"y"}]>
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %[[X2]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[BACK:.*]] = sdy.reshard %[[NEG]] <@mesh_x2_y4, [{"x"}, {}]>
// CHECK-NEXT:    stablehlo.return %{{.*}}, %[[BACK]]
// CHECK:         %[[ARG:.*]] = sdy.reshard %arg1 <@mesh_x2_y4, [{"x"}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %[[CALL:.*]] = call @f(%[[ARG]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:    %[[OUT:.*]] = sdy.reshard %[[CALL]] <@mesh_x2_y4, [{}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %[[W]]#1, %[[OUT]]
// CHECK-LABEL: func.func private @f(
// CHECK-NOT:     sdy.reshard
func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>},
                       %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {}]>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{}, {"y"}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, []>, <@mesh_x2_y4, [{"x"}, {}]>]>}
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %neg = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
      stablehlo.return %next, %neg : tensor<i32>, tensor<8x16xf32>
    }
  %1 = func.call @f(%b) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{}, {"y"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0#1, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

func.func private @f(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_x2_y4, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2_y4, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
