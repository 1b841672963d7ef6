// Devices that hold one value must agree on it, except where the program's own manual
// code says otherwise. This manual computation returns each device's own (negated)
// shard but declares the result replicated over its manual axis "x": the devices
// disagree because of the program, not of shardpy. XLA's partitioner keeps the first
// device's value, and so does shardpy; the replica check warns, naming the manual
// computation, instead of failing. (A divergence shardpy would cause stays an error:
// per_device_replicas_disagree.mlir.)
//
// RUN: shardpy-run %s --check 2>&1 | FileCheck %s
// CHECK: replicas_differ_in_manual_code.mlir:[[# @LINE + 8]]:8: warning: out0: devices disagree by {{.*}} on a value this manual code declares replicated
// CHECK-NOT: MISMATCH
// CHECK: out0: max abs error 0 ok
// CHECK-NOT: MISMATCH
// CHECK: check: PASS

sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<2xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
    %n = stablehlo.negate %l : tensor<2xf32>
    sdy.return %n : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<2xf32>
  %1 = stablehlo.abs %0 : tensor<2xf32>
  return %1 : tensor<2xf32>
}
