// --emit-bytecode writes MLIR bytecode (magic "ML\xefR") that shardpy-opt reads back,
// from a file or from stdin, to the same module as the text path.
// RUN: shardpy-opt %s --emit-bytecode -o %t.mlirbc
// RUN: %python -c "import sys; print(open(sys.argv[1], 'rb').read(4).hex())" %t.mlirbc | FileCheck %s --check-prefix=MAGIC
// RUN: shardpy-opt %t.mlirbc -o %t.frombc.mlir
// RUN: FileCheck %s --input-file %t.frombc.mlir
// Reading the bytecode gives exactly what reading the text gives.
// RUN: shardpy-opt %s -o %t.text.mlir
// RUN: diff %t.text.mlir %t.frombc.mlir
// Bytecode in, a pass, bytecode out; then bytecode read from stdin.
// RUN: shardpy-opt %t.mlirbc --shardpy-strip-shardings --emit-bytecode -o %t.strip.mlirbc
// RUN: shardpy-opt - < %t.strip.mlirbc | FileCheck %s --check-prefix=STRIP

// MAGIC: 4d4cef52

// CHECK-LABEL: module @bc attributes {mhlo.num_partitions = 4 : i32}
// CHECK-NEXT:    sdy.mesh @mesh = <["x"=4], device_ids=[3, 2, 1, 0]>
// CHECK-NEXT:    func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}p2]>}) -> tensor<8xf32> {
// CHECK-NEXT:      %0 = sdy.sharding_constraint %arg0 <@mesh, [{}], replicated={"x":(2)2}> : tensor<8xf32>
// CHECK-NEXT:      %1 = stablehlo.negate %0 : tensor<8xf32>
// CHECK-NEXT:      return %1 : tensor<8xf32>

// STRIP-LABEL: module @bc {
// STRIP-NEXT:    func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// STRIP-NEXT:      %0 = stablehlo.negate %arg0 : tensor<8xf32>

module @bc attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4], device_ids=[3, 2, 1, 0]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}p2]>}) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}], replicated={"x":(2)2}> : tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
