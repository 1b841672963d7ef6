// Pass options: a shardpy pass rejects an option it does not have, given as
// --NAME=OPTIONS or in braces in --pass-pipeline; a native pass rejects its own through
// MLIR's option parser. One line each, no traceback, non-zero exit.
// RUN: not shardpy-opt %s --shardpy-strip-shardings=bogus=1 2>&1 | FileCheck %s --check-prefix=SHARDPY
// RUN: not shardpy-opt %s --pass-pipeline='builtin.module(shardpy-strip-shardings{bogus=1})' 2>&1 | FileCheck %s --check-prefix=SHARDPY
// RUN: not shardpy-opt %s --pass-pipeline='builtin.module(canonicalize{bogus=1})' 2>&1 | FileCheck %s --check-prefix=NATIVE
// An option value a shardpy pass does not take: one error naming the values it takes.
// RUN: not shardpy-opt %s --shardpy-to-local=compact=maybe 2>&1 | FileCheck %s --check-prefix=VALUE
// Native options that exist are passed through.
// RUN: shardpy-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=1 region-simplify=disabled})' | FileCheck %s --check-prefix=OK

// SHARDPY-NOT: Traceback
// SHARDPY:     {{^}}shardpy-opt: error: pass 'shardpy-strip-shardings' has no option 'bogus' (options: none)
// SHARDPY-NOT: func.func
// NATIVE-NOT:  Traceback
// NATIVE:      {{^}}shardpy-opt: error: cannot add 'canonicalize{bogus=1}' to the pipeline: {{.*}}no such option bogus
// NATIVE-NOT:  func.func
// VALUE-NOT:   Traceback
// VALUE:       error: shardpy-to-local: compact must be auto, on or off, not 'maybe'
// VALUE-NOT:   func.func
// OK:          func.func @main

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
