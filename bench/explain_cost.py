#!/usr/bin/env python3
"""What --explain costs (issue 18, item 6): the partition pipeline with and without it.

    python bench/explain_cost.py                      # bench scale_10k, 11 runs per side
    python bench/explain_cost.py --module M.mlir --runs 21
    python bench/explain_cost.py --base /path/to/older/checkout/python   # A/B: off vs before

Each run is a fresh process (bench/_worker.py) timing `Pipeline.run` of
`shardpy-partition` (verify_each off, as shardpy.jit runs it) with perf_counter, and with
`--explain` also reading the records (explain.report.explain). The sides alternate run by
run, so a busy machine slows both alike:

  off       the current code, no recorder: what every partition pays
  on        the current code with a recorder (propagation's visit memo off, the
            placements weighed again) plus reading the records
  base      (with --base DIR) the same pipeline from another checkout's python/ (its
            shardpy on PYTHONPATH; that checkout needs python/shardpy/passes and
            python/shardpy/tools linked to its passes/ and tools/): the "unchanged" side
            of the A/B

The table: median and minimum seconds per side, and each side over `off` (medians,
minima, and the median of the run-by-run ratios with its quartiles).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "bench" / ".cache" / "scale_10k.mlir"
WORKER = ROOT / "bench" / "_worker.py"


def run(module: Path, side: str, base: str | None) -> float:
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    if side == "base":
        env["PYTHONPATH"] = base
    cmd = [sys.executable, str(WORKER), str(module), "--pipeline",
           "builtin.module(shardpy-partition)"] + (["--explain"] if side == "on" else [])
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")
    line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "{}"
    found = json.loads(line)
    if not found.get("ok"):
        raise SystemExit(f"{side}: the partition failed:\n{done.stderr[-2000:]}"
                         f"{found.get('diagnostics', '')}")
    return found["pass_seconds"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--base", help="another checkout's python/ directory (A/B)")
    args = parser.parse_args(argv)
    if not args.module.exists():
        subprocess.run([sys.executable, str(ROOT / "bench" / "scale.py"), "--sizes", "10k"],
                       check=True)
    sides = ["off", "on"] + (["base"] if args.base else [])
    times: dict = {s: [] for s in sides}
    for _ in range(args.runs):
        for side in sides:
            times[side].append(run(args.module, side, args.base))
    print(f"{args.module.name}, {args.runs} runs per side, alternating")
    print("| side | median s | min s | median / off | min / off | paired (quartiles) |")
    print("|---|---:|---:|---:|---:|---|")
    off = times["off"]
    for side in sides:
        t = times[side]
        pairs = [a / b for a, b in zip(t, off)]
        q = statistics.quantiles(pairs, n=4) if len(pairs) > 1 else [pairs[0]] * 3
        print(f"| {side} | {statistics.median(t):.3f} | {min(t):.3f} | "
              f"{statistics.median(t) / statistics.median(off):.3f} | "
              f"{min(t) / min(off):.3f} | {q[1]:.3f} ({q[0]:.3f}-{q[2]:.3f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
