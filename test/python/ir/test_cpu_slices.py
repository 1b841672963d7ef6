"""ir/cpu_slices.py: a combined reduce_scatter's pieces taken inside an unfoldable
conditional before XLA:CPU compiles the per-device module. Execution is proven by
test/CombineCollectives/independent_reduce_scatters.mlir (shardpy-run --check runs the
rewritten module on the CPU mesh); these pin the rewrite itself."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from jaxlib.mlir import ir

from shardpy.ir.cpu_slices import slices_through_case
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


def test_pieces_move_into_a_two_branch_case():
    with make_context() as context:
        module = partitioned(context)
        before = names(module)
        slices = before.count("stablehlo.slice")
        assert slices >= 2
        assert slices_through_case(module.operation) == 1
        module.operation.verify()
        after = names(module)
        assert after.count("stablehlo.case") == 1
        # the slices, now in branch 0; branch 1 returns zeros (never taken)
        case = next(op for op in collect_ops(module.operation) if op.name == "stablehlo.case")
        branch = [op.name for op in case.regions[0].blocks[0].operations]
        assert branch.count("stablehlo.slice") == slices
        scatter = next(op for op in collect_ops(module.operation)
                       if op.name == "stablehlo.reduce_scatter"
                       and any(True for _ in op.results[0].uses))
        readers = [use.owner for use in scatter.results[0].uses]
        assert readers and all(r.operation.parent == case for r in readers)
        assert slices_through_case(module.operation) == 0  # nothing left to rewrite


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
