#!/usr/bin/env python3
"""First calls with JAX's persistent compilation cache on: a program restarted (issue 15).

    python bench/models/warm_start.py                        # every program of bench/models
    python bench/models/warm_start.py --programs gpt_dp_tp_mesh2x4 --restarts 3
    python bench/models/warm_start.py --json warm.json

Users who restart programs set `jax_compilation_cache_dir`: jax.jit's first call in the
new process then lowers and loads its executable from disk. shardpy.jit keeps its
partitions in the same directory (shardpy/frontend/partition_cache.py). For each
program and side, in fresh processes sharing one new cache directory per program: one
cold first call (it fills the cache), then --restarts warm ones; each is the wall clock
of the first call of a fresh jit object (trace, lower, partition or read it back,
compile or load, run, results awaited), as run.py measures it. JAX's minimum compile
time for caching is set to 0 so that every compile is kept. Sides alternate
restart by restart.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

import run as models  # noqa: E402  (bench/models/run.py: discovery, mesh, donation)

SIDES = models.SIDES


def first_call(name: str, side: str, cache_dir: str) -> dict:
    """One first call of program `name` under `side`, the persistent cache in
    `cache_dir` (a fresh process runs this)."""
    models.setup_environment("cpu")
    import jax

    jax.config.update("jax_enable_compilation_cache", True)
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    import shardpy

    program = models.discover()[0][name][1]
    mesh = models.make_mesh(program, models.platform_devices("cpu"))
    step, args = program.build(mesh)
    jit = jax.jit if side == "jax" else shardpy.jit
    jitted = jit(step, donate_argnums=program.donate)
    call_args = models._fresh(tuple(args), program.donate)
    start = time.perf_counter()
    jax.block_until_ready(jitted(*call_args))
    return {"first_call_s": time.perf_counter() - start}


def measure(name: str, restarts: int, timeout: int) -> dict:
    row = {"program": name, **{side: {"cold_s": None, "warm_s": []} for side in SIDES}}
    with tempfile.TemporaryDirectory(prefix="shardpy-warm-") as cache:
        for attempt in range(restarts + 1):
            for side in SIDES if attempt % 2 == 0 else SIDES[::-1]:
                proc = subprocess.run(
                    [sys.executable, str(HERE), "--worker", name, side, cache],
                    capture_output=True, text=True, timeout=timeout)
                lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
                if proc.returncode != 0 or not lines:
                    row[side]["error"] = (proc.stderr.strip().splitlines() or ["?"])[-1]
                    continue
                seconds = json.loads(lines[-1])["first_call_s"]
                if attempt == 0:
                    row[side]["cold_s"] = seconds
                else:
                    row[side]["warm_s"].append(seconds)
    for side in SIDES:
        warm = row[side]["warm_s"]
        row[side]["warm_median_s"] = statistics.median(warm) if warm else None
    jx, sp = row["jax"]["warm_median_s"], row["shardpy"]["warm_median_s"]
    row["warm_ratio"] = sp / jx if jx and sp else None
    jx, sp = row["jax"]["cold_s"], row["shardpy"]["cold_s"]
    row["cold_ratio"] = sp / jx if jx and sp else None
    return row


def render(rows: list[dict], restarts: int) -> str:
    def cell(x, digits=2):
        return "–" if x is None else f"{x:.{digits}f}"

    lines = [f"First calls with JAX's persistent compilation cache on: cold (an empty cache) "
             f"and warm (median of {restarts} restarts), seconds.", "",
             "| program | cold jax | cold shardpy | cold ratio | warm jax | warm shardpy | "
             "warm ratio |", "|---|---:|---:|---:|---:|---:|---:|"]
    warm_ratios = []
    for r in rows:
        jx, sp = r["jax"], r["shardpy"]
        lines.append(f"| {r['program']} | {cell(jx['cold_s'])} | {cell(sp['cold_s'])} | "
                     f"{cell(r['cold_ratio'])}× | {cell(jx['warm_median_s'])} | "
                     f"{cell(sp['warm_median_s'])} | {cell(r['warm_ratio'])}× |")
        if r["warm_ratio"]:
            warm_ratios.append(r["warm_ratio"])
        for side in SIDES:
            if r[side].get("error"):
                lines.append(f"|  | {side} failed: {r[side]['error']} |||||")
    if warm_ratios:
        lines += ["", f"Geometric mean of the warm ratios (shardpy / jax): "
                      f"{models.geomean(warm_ratios):.3f}× over {len(warm_ratios)} programs"]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", nargs="+", metavar="NAME",
                        help="program names (default: every program of bench/models)")
    parser.add_argument("--restarts", type=int, default=2, metavar="N",
                        help="warm first calls per side after the cold one (default 2)")
    parser.add_argument("--json", type=pathlib.Path, metavar="PATH")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per process")
    parser.add_argument("--worker", nargs=3, metavar=("NAME", "SIDE", "CACHE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(first_call(*args.worker)), flush=True)
        return 0
    programs, broken = models.discover()
    names = args.programs or sorted(programs)
    unknown = [n for n in names if n not in programs]
    if unknown:
        parser.error(f"unknown programs: {', '.join(unknown)} (known: {', '.join(sorted(programs))})")
    rows = []
    for i, name in enumerate(names, 1):
        print(f"[{i}/{len(names)}] {name} ...", file=sys.stderr, flush=True)
        rows.append(measure(name, args.restarts, args.timeout))
    print(render(rows, args.restarts))
    if args.json:
        args.json.write_text(json.dumps({"programs": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
