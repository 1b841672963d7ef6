"""Property test of the windowed ops on sharded dims (halo exchanges, python/shardpy/lowering/windowed.py).

Random programs of one op each (test/fuzz/windowed.py: pad, slice, reverse, a
concatenate of slices (roll), reduce_window with windows/strides/padding/dilations,
cumulative reductions both ways, select_and_scatter, convolution with groups and
weight-gradient shapes), random shapes and random shardings of arguments and results
over meshes of 8 devices, partitioned with shardpy-partition and run on 8 CPU devices
against the one-device program. Properties:

  * outputs agree with the reference, and devices holding the same shard agree;
  * none of these ops is "computed replicated" (the warning of ops without a local
    form);
  * the batch really exercises the exchanges: for every op, some programs keep a
    windowed dim sharded and move data with collective_permute (cumulative
    reductions: with the all_gather of the shards' totals). Three programs in four
    (seed % 4 != 0) are partitioned with plans ranked by bytes
    (test/Inputs/bytes_only_profile.json), as the shipped cpu profile's time ranking
    gathers most windowed dims this small.

A failure names its seed: `python test/fuzz/windowed.py --seed S > p.mlir;
shardpy-run p.mlir --check` (seed % 4 != 0: with
SHARDPY_COST_PROFILE set to test/Inputs/bytes_only_profile.json).
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

import windowed  # noqa: E402

PER_OP = 25
RTOL, ATOL = 1e-4, 1e-5


@pytest.fixture(scope="module")
def runner():
    import run_fuzz

    return run_fuzz.Runner()


def _partition_and_run(runner, text: str, seed: int):
    """(status, detail, warnings, per-device module text)."""
    from jaxlib.mlir import ir

    from shardpy.runtime import arrays
    from shardpy.runtime import executor as runtime
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.passes.strip_shardings import StripShardings

    context = runner.context
    engine = DiagnosticEngine(f"windowed_{seed}.mlir")
    with engine.capturing(context):
        module = ir.Module.parse(text, context)
        op = module.operation
        sig = runtime.signature(op)
        inputs = arrays.random_inputs([v.type for v in sig.args], 0)
        reference = op.clone()
        ok = runner.pipeline.run(module, engine)
        diagnostics = [d.render() for d in engine.diagnostics]
        warnings = [d for d in diagnostics if "warning" in d]
        if not ok or engine.has_errors:
            return "partition-error", "\n".join(diagnostics), warnings, ""
        with context, reference.location:
            StripShardings().run(reference)
        expected = runner.executor.run_global(reference, inputs).outputs
        result = runner.executor.run_per_device(op, sig, inputs)
        per_device = str(module)
    lines = []
    for i, (a, e) in enumerate(zip(result.outputs, expected)):
        c = arrays.compare(f"out{i}", a, e, RTOL, ATOL)
        if not c.ok:
            lines.append(c.line())
    for i, divergence in enumerate(result.replica_divergence):
        if divergence > ATOL:
            lines.append(f"out{i}: devices holding the same shard disagree by {divergence:.3g}")
    return ("mismatch" if lines else "pass"), "\n".join(lines), warnings, per_device


COVERAGE: dict[str, Counter] = defaultdict(Counter)


@pytest.mark.parametrize("op", windowed.OPS)
def test_windowed_op_on_shards(op, runner, monkeypatch):
    import run_fuzz

    failures = []
    for i in range(PER_OP):
        seed = 10_000 + 100 * windowed.OPS.index(op) + i
        name, text = windowed.program(seed, op)
        # Three programs in four with plans ranked by bytes: at these sizes the cpu
        # profile's time ranking gathers nearly every windowed dim (one all_gather
        # against two collective_permutes), so the exchanges are drawn that way.
        if i % 4:
            monkeypatch.setenv("SHARDPY_COST_PROFILE", str(run_fuzz.BYTES_RANKED_PROFILE))
        else:
            monkeypatch.delenv("SHARDPY_COST_PROFILE", raising=False)
        status, detail, warnings, per_device = _partition_and_run(runner, text, seed)
        replicated = [w for w in warnings if "computed replicated" in w]
        if status != "pass" or replicated:
            failures.append(f"seed {seed}: {status}: {(detail or '').splitlines()[:3]} "
                            f"{replicated[:1]}")
            continue
        COVERAGE[op]["programs"] += 1
        COVERAGE[op]["collective_permute"] += "stablehlo.collective_permute" in per_device
        COVERAGE[op]["all_gather"] += "stablehlo.all_gather" in per_device
    assert not failures, "\n".join(
        failures + [f"reproduce: python test/fuzz/windowed.py --seed SEED --op {op} > p.mlir"
                    f" && shardpy-run p.mlir --check"])
    seen = COVERAGE[op]
    if op == "cumulative":
        assert seen["all_gather"] >= PER_OP // 4, seen
    else:
        assert seen["collective_permute"] >= PER_OP // 4, (
            f"{op}: too few programs exchanged halos ({dict(seen)})")


CUMSUM = """
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%x: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> tensor<16x64xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
"""


def test_exchange_names_each_collective_by_kind(ctx):
    """LocalOp.exchange gives the collectives the lowering makes by kind and group: a
    cumsum over 4 shards of "model" is one all_gather of the 8 x 4 shard totals (3/4 of
    128 B per device), not a halo's collective_permute (costed so, its ~190 us latency
    against the all_gather's ~120 us made the cpu profile gather the whole operand)."""
    from jaxlib.mlir import ir

    from shardpy.ops.registry import local_entry
    from shardpy.sharding.state import ShardingState

    module = ir.Module.parse(CUMSUM, ctx)
    func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
    scan = [op for op in func.regions[0].blocks[0].operations
            if op.name == "stablehlo.reduce_window"][0]
    sharded = ShardingState(module.operation).of(func.arguments[0])
    assert local_entry(scan).exchange(scan, [sharded, None], [sharded]) == (
        ("all_gather", 4, 96.0),)
