"""bench/compare_xla.py (shardpy vs XLA's own partitioner) keeps working end to end on
two tiny programs (no timing asserted). Its HLO reader: test/python/runtime/
test_hlo_collectives.py."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]


# --------------------------------------------------------------------------- end to end


def _run(tmp_path, *args):
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compare_xla.py"), "--in-process", "--repeat",
         "2", "--json", str(report), *args],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout, json.loads(report.read_text())


def test_two_tiny_programs(tmp_path):
    out, report = _run(tmp_path, "--programs", "mlp_megatron_mesh8,argmax_*")
    rows = {r["program"]: r for r in report["programs"]}
    assert set(rows) == {"mlp_megatron_mesh8", "argmax_mesh2x4"}
    for row in rows.values():
        assert row["shardpy"]["status"] == "ok", row["shardpy"]
        assert row["xla"]["status"] == "ok", row["xla"]
        assert row["outputs"]["status"] == "match", row["outputs"]
        for side in ("shardpy", "xla"):
            assert len(row[side]["times_ms"]) == 2
            assert row[side]["peak_memory"] > 0
    megatron = rows["mlp_megatron_mesh8"]
    # one all-reduce of the 16x32 f32 output over 8 devices, on both sides
    for side in ("shardpy", "xla"):
        assert megatron[side]["collectives"] == {
            "all_reduce": {"count": 1, "bytes_per_device": 2 * 7 / 8 * 2048}}
    assert megatron["ratios"]["bytes"] == 1.0
    # its per-device program compiles to XLA's own; 2 rounds are too few for the A/A
    assert megatron["instructions"]["reference_only"] == 0
    assert megatron["instructions"]["shardpy_only"] == 0
    assert megatron["aa"] is None and megatron["verdict"] is None is megatron["p_value"]
    assert "0 of 20 (same program)" in out and "Against the A/A control" in out
    assert "| mlp_megatron_mesh8 |" in out and "| argmax_mesh2x4 |" in out
    assert "Targets:" in out
    assert report["summary"]["programs"] == 2


def test_a_shardpy_failure_is_a_row(tmp_path):
    # propagation alone leaves global types: shardpy's side fails, the tool goes on
    out, report = _run(tmp_path, "--programs", "mlp_megatron_mesh8",
                       "--pipeline", "shardpy-propagate")
    row = report["programs"][0]
    assert row["shardpy"]["status"] == "failed" and row["shardpy"]["stage"] == "compile"
    assert row["xla"]["status"] == "ok"
    assert "**shardpy failed** (compile)" in out
    assert "instructions" not in row and "paired" not in row  # nothing to compare
    assert report["summary"]["failed"] == ["mlp_megatron_mesh8"]
