"""runtime/reference.py: the global program XLA's partitioner runs as the reference
for per-device code. Outside manual computations it computes replicated, as one
device would; the manual computations get their operands sliced in and their results
gathered out."""
from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir

from shardpy.runtime import executor as runtime
from shardpy.runtime.reference import fence_manual_code

# A scatter whose 2 indices are constrained onto 4 devices, next to a manual
# computation (what makes XLA the reference). Left to Shardy's propagation, XLA:CPU
# partitions the scatter along the indices and gets it wrong (max abs error 2.3, fuzz
# seed 6000407 of test/fuzz/manual.py); fenced, it computes it replicated.
MODULE = """
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2], device_ids=[6, 3, 1, 0, 7, 5, 4, 2]>
func.func public @main(%x: tensor<12x64xf32>, %u: tensor<2x64xf32>)
    -> (tensor<12x64xf32>, tensor<4x64xf32>) {
  %c = stablehlo.constant dense<[3, 6]> : tensor<2xi32>
  %0 = sdy.sharding_constraint %c <@mesh, [{"b", "a"}]> : tensor<2xi32>
  %1 = stablehlo.reshape %0 : (tensor<2xi32>) -> tensor<2x1xi32>
  %2 = "stablehlo.scatter"(%x, %1, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %m = stablehlo.maximum %p, %q : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<12x64xf32>, tensor<2x1xi32>, tensor<2x64xf32>) -> tensor<12x64xf32>
  %3 = sdy.manual_computation(%u) in_shardings=[<@mesh, [{}, {"a"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%l: tensor<2x32xf32>) {
    %4 = "stablehlo.all_gather"(%l) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[6, 7], [3, 5], [1, 4], [0, 2]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<2x32xf32>) -> tensor<2x64xf32>
    sdy.return %4 : tensor<2x64xf32>
  } : (tensor<2x64xf32>) -> tensor<4x64xf32>
  return %2, %3 : tensor<12x64xf32>, tensor<4x64xf32>
}
}
"""


def test_outside_manual_code_the_reference_computes_replicated(ctx):
    module = ir.Module.parse(MODULE, ctx)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((12, 64)).astype(np.float32)
    u = rng.standard_normal((2, 64)).astype(np.float32)
    out, gathered = runtime.Executor("cpu").run_global_by_xla(module.operation, [x, u]).outputs
    expected = x.copy()
    expected[[3, 6]] = np.maximum(expected[[3, 6]], u)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(gathered, np.concatenate([u, u]))


def test_the_fence_drops_layouts_and_wraps_manual_computations(ctx):
    module = ir.Module.parse(MODULE, ctx)
    with ctx:
        fence_manual_code(module.operation)
    text = str(module)
    main = text[text.index("func.func"):]
    assert '{"b", "a"}' not in main  # the constraint outside manual code is gone
    # Operand and result of the manual computation behind closed replicated constraints.
    assert main.count("sdy.sharding_constraint") == 2
    assert main.count("<@mesh, [{}, {}]>") == 2
    assert 'in_shardings=[<@mesh, [{}, {"a"}]>]' in main  # the manual code stays
    module.operation.verify()
