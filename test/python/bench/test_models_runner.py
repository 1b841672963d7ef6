"""bench/models/run.py (the real-model benchmark of issue 14) runs end to end on its
smallest program, the flax.nnx MLP train step, under both jits (no timing asserted).
Needs the `bench` extra (flax, optax), which CI does not install."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("flax")
pytest.importorskip("optax")

ROOT = pathlib.Path(__file__).resolve().parents[3]
PROGRAM = "mlp_dp_tp_mesh2x4"


def test_runner_prints_the_mlp_row_and_outputs_match(tmp_path):
    out = tmp_path / "models.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "models" / "run.py"), "--programs", PROGRAM,
         "--runs", "4", "--in-process", "--json", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith(f"| {PROGRAM} |")]
    assert len(rows) == 1, proc.stdout
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    assert cells[2].startswith("match") and "shardings ==" in cells[2], rows[0]
    assert "Geometric mean of the step-time ratios" in proc.stdout

    row, = json.loads(out.read_text())["programs"]
    assert row["outputs"]["status"] == "match" and row["outputs"]["leaves"] > 1
    assert row["outputs"]["shardings_differ"] == 0  # every output == jax.jit's (issue 15)
    paired = row["paired"]  # each round's shardpy call over its jax call
    assert paired["count"] == 4 and paired["q1"] <= paired["median"] <= paired["q3"]
    assert cells[6].endswith(")") and "×" in cells[6], rows[0]
    # the A/A control: jax.jit's step against itself, in the same rounds
    aa = row["aa"]
    assert aa["count"] == 4 and aa["q1"] <= aa["median"] <= aa["q3"]
    assert row["verdict"] in ("faster", "within noise", "slower") and 0 <= row["p_value"] <= 1
    assert cells[7].endswith(")") and "×" in cells[7], rows[0]
    # the MLP's per-device program compiles to jax.jit's own: no instruction differs
    assert row["instructions"]["reference_only"] == row["instructions"]["shardpy_only"] == 0
    assert cells[-1].endswith("(same program)"), rows[0]
    for side in ("jax", "shardpy"):
        measured = row[side]
        assert measured["status"] == "ok", measured
        assert len(measured["times_ms"]) == 4 and measured["first_call_s"] > 0
        assert measured["fed_back_args"] == 2  # (params, opt_state) come back
        assert measured["peak_memory"] > 0
        # DP x TP: the data-parallel gradient sums, at least
        assert measured["collectives"].get("all_reduce", {}).get("count", 0) >= 1


def test_warm_start_reports_cold_and_warm_first_calls(tmp_path):
    out = tmp_path / "warm.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "models" / "warm_start.py"), "--programs",
         PROGRAM, "--restarts", "1", "--json", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"| {PROGRAM} |" in proc.stdout and "warm ratio" in proc.stdout
    row, = json.loads(out.read_text())["programs"]
    for side in ("jax", "shardpy"):
        assert row[side]["cold_s"] > 0 and len(row[side]["warm_s"]) == 1, row
    assert row["warm_ratio"] > 0
