"""ir/cpu_slices.py: a combined reduce_scatter's pieces read at offsets that come out
of an unfoldable conditional before XLA:CPU compiles the per-device module. Execution is proven by
test/CombineCollectives/independent_reduce_scatters.mlir (shardpy-run --check runs the
rewritten module on the CPU mesh); these pin the rewrite itself."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from jaxlib.mlir import ir

from shardpy.ir.cpu_slices import offsets_through_case
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.ir.utils import collect_ops

ROOT = Path(__file__).resolve().parents[3]
COMBINED = ROOT / "test" / "CombineCollectives" / "independent_reduce_scatters.mlir"


def source(element: str = "f32") -> str:
    """The combined reduce_scatters' program, its values of `element`."""
    return COMBINED.read_text().replace("xf32>", f"x{element}>")


def partitioned(context, element: str = "f32") -> ir.Module:
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.pipeline import Pipeline, PipelineOptions

    module = ir.Module.parse(source(element), context)
    engine = DiagnosticEngine(str(COMBINED))
    with engine.capturing(context):
        assert Pipeline("builtin.module(shardpy-partition)", context,
                        PipelineOptions()).run(module, engine)
    return module


def names(module) -> list[str]:
    return [op.name for op in collect_ops(module.operation)]


def test_offsets_come_out_of_a_two_branch_case():
    with make_context() as context:
        module = partitioned(context)
        before = names(module)
        slices = before.count("stablehlo.slice")
        assert slices >= 2
        assert offsets_through_case(module.operation) == 1
        module.operation.verify()
        after = names(module)
        assert after.count("stablehlo.case") == 1
        assert after.count("stablehlo.slice") == 0
        assert after.count("stablehlo.dynamic_slice") == before.count(
            "stablehlo.dynamic_slice") + slices
        # branch 0 returns the nonzero offsets as constants, branch 1 zeros (never taken)
        case = next(op for op in collect_ops(module.operation) if op.name == "stablehlo.case")
        taken, other = ([op for op in region.blocks[0].operations] for region in case.regions)
        assert all(op.name in ("stablehlo.constant", "stablehlo.return") for op in taken + other)
        assert 1 <= len(case.results) < slices + 1
        scatter = next(op for op in collect_ops(module.operation)
                       if op.name == "stablehlo.reduce_scatter"
                       and any(True for _ in op.results[0].uses))
        readers = [use.owner.operation for use in scatter.results[0].uses]
        assert len(readers) == slices
        assert all(r.name == "stablehlo.dynamic_slice" for r in readers)
        # every reader's offsets are the case's results or the zero constant
        for r in readers:
            for offset in list(r.operands)[1:]:
                owner = offset.owner.operation if hasattr(offset.owner, "operation") else None
                assert owner is not None and owner.name in ("stablehlo.case",
                                                            "stablehlo.constant")
        assert offsets_through_case(module.operation) == 0  # nothing left to rewrite


def _two_pieces(first: str, second: str, widths: tuple[int, int]) -> str:
    """A reduce_scatter read by two slices `first` and `second` of the given widths."""
    p, q = (f"tensor<1x{w}xf32>" for w in widths)
    return f"""
func.func @main(%x: tensor<8x8xf32>) -> ({p}, {q}) {{
  %rs = "stablehlo.reduce_scatter"(%x) <{{replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, scatter_dimension = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }}) : (tensor<8x8xf32>) -> tensor<1x8xf32>
  %p = stablehlo.slice %rs {first} : (tensor<1x8xf32>) -> {p}
  %q = stablehlo.slice %rs {second} : (tensor<1x8xf32>) -> {q}
  return %p, %q : {p}, {q}
}}"""


@pytest.mark.parametrize("second, widths", [
    ("[0:1, 0:8:2]", (4, 4)),  # strided: no dynamic_slice takes it
    ("[0:1, 0:2]", (4, 2)),    # every piece at offset 0: no constant to hide
])
def test_pieces_left_alone(second, widths):
    with make_context() as context:
        module = ir.Module.parse(_two_pieces("[0:1, 0:4]", second, widths), context)
        assert offsets_through_case(module.operation) == 0
        assert names(module).count("stablehlo.slice") == 2


@pytest.mark.parametrize("element", ["f32", "complex<f32>"])  # (complex: its own zeros)
def test_the_rewritten_module_computes_the_same(element):
    from shardpy.runtime import executor as runtime
    from shardpy.runtime.arrays import random_inputs

    with make_context() as context:
        global_module = ir.Module.parse(source(element), context)
        global_sig = runtime.signature(global_module.operation)
        arrays = random_inputs([v.type for v in global_sig.args], 0)
        outputs = {}
        for rewrite in (False, True):
            module = partitioned(context, element)
            executor = runtime.Executor("cpu")
            if not rewrite:  # the same CPU client, the rewrite skipped
                executor.platform = "cpu, unrewritten"
            result = executor.run_per_device(module.operation, global_sig, arrays)
            outputs[rewrite] = [np.asarray(o) for o in result.outputs]
        for a, b in zip(outputs[False], outputs[True]):
            np.testing.assert_array_equal(a, b)
