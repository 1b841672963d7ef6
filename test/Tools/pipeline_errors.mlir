// Errors in the pipeline, given as flags or as text, are one clear line each (no Python
// traceback), nothing is printed, and the exit status is non-zero.
// RUN: not shardpy-opt %s --pass-pipeline='builtin.module(func.func(cse,shardpy-strip-shardings))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not shardpy-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FLAG
// RUN: not shardpy-opt %s --pass-pipeline='builtin.module(cse,no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not shardpy-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// RUN: not shardpy-opt %s --cse --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=BOTH

// A shardpy pass runs on the whole module; it cannot be anchored on func.func.
// NESTED-NOT:  Traceback
// NESTED:      {{^}}shardpy-opt: error: shardpy pass 'shardpy-strip-shardings' is nested under 'func.func'; shardpy passes run on the whole module (put it at the top level)
// NESTED-NOT:  func.func

// An unknown pass name, as a flag and in a pipeline (MLIR's own message is kept).
// UNKNOWN-FLAG-NOT: Traceback
// UNKNOWN-FLAG:     {{^}}shardpy-opt: error: cannot add 'no-such-pass' to the pipeline: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-FLAG-NOT: func.func
// UNKNOWN-NOT:      Traceback
// UNKNOWN:          {{^}}shardpy-opt: error: cannot add 'no-such-pass' to the pipeline: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-NOT:      func.func

// UNBALANCED:     {{^}}shardpy-opt: error: unbalanced brackets or quotes in 'builtin.module(func.func(cse)'
// UNBALANCED-NOT: func.func
// BOTH:           {{^}}shardpy-opt: error: use either --pass-pipeline or pass flags, not both
// BOTH-NOT:       func.func

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
