// sdy.data_flow_edge ops already in the input (Shardy's import writes one on every
// data-flow target: a region op's result or block argument). Each is its operand under
// another name and carries that value's sharding: propagation reads it (seeds) and
// writes it, on the edge and, for a barrier, while or case, on the owner's results as
// well. A manual computation's in/out_shardings stay as given while edges hold its
// body arguments' and results' shardings (as in Shardy); the partitioner sinks the
// edges first, writing them there (a body argument's edge holds its local sharding:
// the manual axes go back in), and the program runs right.
//
// RUN: shardpy-opt %s --shardpy-propagate | FileCheck %s
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: warning
// EXEC: check: PASS

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: tensor<16x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK:         sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:      in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{?}, {?}]>]
// CHECK-SAME:      out_shardings=[<@mesh, [{"x"}, {?}]>]
// CHECK-NEXT:      sdy.data_flow_edge %arg3 sharding=<@mesh, [{}, {"y"}]>
// CHECK-NEXT:      sdy.data_flow_edge %arg4 sharding=<@mesh, [{}, {"y"}]>
// CHECK:         %[[MC_EDGE:.*]] = sdy.data_flow_edge %0 sharding=<@mesh, [{"x"}, {"y"}]>
// CHECK:         %[[BAR:.*]]:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT:    sdy.data_flow_edge %[[BAR]]#0 sharding=<@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT:    sdy.data_flow_edge %[[BAR]]#1 sharding=<@mesh, [{"y"}, {}]>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<16x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<16x24xf32>, %c: tensor<16x24xf32>) -> (tensor<16x24xf32>, tensor<16x24xf32>) {
  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{?}, {?}]>]
      out_shardings=[<@mesh, [{"x"}, {?}]>] manual_axes={"x"}
      (%la: tensor<8x24xf32>, %lb: tensor<16x24xf32>) {
    %e1 = sdy.data_flow_edge %la sharding=<@mesh, [{}, {"y"}]> : tensor<8x24xf32>
    %e2 = sdy.data_flow_edge %lb sharding=<@mesh, [{?}, {?}]> : tensor<16x24xf32>
    %s = stablehlo.slice %e2 [0:8, 0:24] : (tensor<16x24xf32>) -> tensor<8x24xf32>
    %m = stablehlo.multiply %e1, %s : tensor<8x24xf32>
    sdy.return %m : tensor<8x24xf32>
  } : (tensor<16x24xf32>, tensor<16x24xf32>) -> tensor<16x24xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x"}, {?}]> : tensor<16x24xf32>
  %2 = stablehlo.negate %1 : tensor<16x24xf32>
  %3:2 = stablehlo.optimization_barrier %2, %c : tensor<16x24xf32>, tensor<16x24xf32>
  %4 = sdy.data_flow_edge %3#0 : tensor<16x24xf32>
  %5 = sdy.data_flow_edge %3#1 sharding=<@mesh, [{"y"}, {}]> : tensor<16x24xf32>
  return %4, %5 : tensor<16x24xf32>, tensor<16x24xf32>
}
