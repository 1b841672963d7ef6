"""--explain over fuzz programs (issue 18): recording changes nothing in the per-device
module (debug locations included), and every stablehlo collective gets one record with
a reason, a location and its cost."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from jaxlib.mlir import ir

from shardpy import explain
from shardpy.explain.report import explain as read_records
from shardpy.ir.diagnostics import DiagnosticEngine
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.ir.utils import collect_ops
from shardpy.pipeline import Pipeline, PipelineOptions
from shardpy.sharding.collective_time import COLLECTIVES

FUZZ = Path(__file__).resolve().parents[2] / "fuzz"
# Seeds with halo exchanges, manual code, reduce_scatters, all_to_alls, two meshes.
SEEDS = (6000226, 1005, 1011, 24, 42, 790, 12236, 3000400)


def partition(text: str, recorder=None) -> tuple[str, ir.Module]:
    context = make_context()
    engine = DiagnosticEngine("fuzz")
    with engine.capturing(context):
        module = ir.Module.parse(text, context)
        pipeline = Pipeline("builtin.module(shardpy-partition)", context,
                            PipelineOptions(verify_each=False))
        if recorder is None:
            assert pipeline.run(module, engine)
        else:
            with explain.recording(recorder):
                assert pipeline.run(module, engine)
    return module


@pytest.mark.parametrize("seed", SEEDS)
def test_explaining_a_fuzz_program_changes_nothing(seed):
    sys.path.insert(0, str(FUZZ))
    import generate

    text = generate.generate(seed).text
    plain = partition(text)
    recorder = explain.Recorder()
    explained = partition(text, recorder)
    records = read_records(explained.operation, recorder)
    assert explained.operation.get_asm(enable_debug_info=True) == \
        plain.operation.get_asm(enable_debug_info=True)
    count = sum(1 for op in collect_ops(explained.operation)
                if op.name.startswith("stablehlo.") and op.name in COLLECTIVES)
    assert len(records) == count
    for r in records:
        assert r.why in ("operand", "result", "lowering", "program"), r.to_json()
        assert r.loc and r.kind and r.bytes >= 0
        if r.why in ("operand", "result"):
            assert r.from_sharding and r.to_sharding

