// A module whose entry is its single public function under another name than @main
// (shardpy-run accepts it, as its error message says) runs and is checked, its
// reference included: XLA compiles only a function named main, so the reference's copy
// renames the entry (before: "XLA could not compile the program: INVALID_ARGUMENT: MLIR
// module must have a main function"). The second module has per-device code, whose
// reference is XLA's partitioner.
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[0])" %s | shardpy-run - --check | FileCheck %s
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[1])" %s | shardpy-run - --check | FileCheck %s --check-prefixes=CHECK,MANUAL
// MANUAL: reference: XLA's SPMD partitioner
// CHECK: check: PASS

module @named attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=4]>
  func.func public @forward(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x4xf32> {
    %0 = call @helper(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func private @helper(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.sine %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

module @named attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=4]>
  func.func public @forward(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %m = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a", "b"} (%l: tensor<1x4xf32>) {
      %n = stablehlo.negate %l : tensor<1x4xf32>
      sdy.return %n : tensor<1x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %0 = call @helper(%m) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func private @helper(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.sine %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
