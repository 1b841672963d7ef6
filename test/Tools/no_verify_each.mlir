// The module is verified after every pass, so a pass that leaves invalid IR is caught
// right there, with the location of the offending op and a non-zero exit status;
// --no-verify-each skips that check and the invalid module is printed (MLIR's printer
// falls back to the generic form for ops that do not verify).
// A test-only pass that erases every func.return stands in for a buggy pass.
// RUN: not %python %S/Inputs/shardpy_opt_with_test_passes.py %s --shardpy-strip-shardings --test-erase-returns 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: %python %S/Inputs/shardpy_opt_with_test_passes.py %s --shardpy-strip-shardings --test-erase-returns --no-verify-each | FileCheck %s --check-prefix=NO-VERIFY
// Valid IR prints the same either way.
// RUN: shardpy-opt %s --shardpy-strip-shardings --no-verify-each | FileCheck %s --check-prefix=VALID

// NO-VERIFY:      "func.func"() <{
// NO-VERIFY-SAME:   sym_name = "main"
// NO-VERIFY-NEXT: ^bb0(%arg0: tensor<8xf32>):
// NO-VERIFY-NEXT:   %0 = "stablehlo.negate"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// NO-VERIFY-NEXT: }) : () -> ()

// VALID:      func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// VALID-NEXT:   %0 = stablehlo.negate %arg0 : tensor<8xf32>
// VALID-NEXT:   return %0 : tensor<8xf32>

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // The error is reported at the last op of the block left without a terminator.
  // VERIFY-NOT: Traceback
  // VERIFY:     {{^}}{{.*}}no_verify_each.mlir:[[# @LINE + 2]]:8: error: block with no terminator
  // VERIFY-NOT: func.func
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
