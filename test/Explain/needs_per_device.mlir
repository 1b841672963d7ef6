// --explain reads the per-device module: a pipeline that stops before shardpy-to-local
// gets one clear error (exit 1), not an empty table.
// RUN: not shardpy-opt %s --shardpy-propagate --shardpy-insert-reshards --explain 2>&1 | FileCheck %s
// CHECK: shardpy-opt: error: --explain reads the per-device module shardpy-partition writes: this pipeline left a global one
// And --explain explains a partitioning: not a --reference run.
// RUN: not shardpy-run %s --reference --explain 2>&1 | FileCheck %s --check-prefix=REF
// REF: error: --explain explains a partitioning: it needs a global module and the partitioned run (not --reference)

sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %b = stablehlo.negate %a : tensor<8xf32>
  return %b : tensor<8xf32>
}
