#!/usr/bin/env python3
"""Time sharding propagation on deep modules: shardpy-propagate vs native Shardy.

    python bench/propagation.py                     # 1k, 10k, 50k ops; 3 runs per pass
    python bench/propagation.py --sizes 1k 10k --repeat 5 --json timing.json
    python bench/propagation.py --native-only

The modules come from bench/scale.py (generated into bench/.cache/ when missing or
stale). Every run is a fresh process (bench/_worker.py): it parses the module once, then
times only `Pipeline(pipeline).run(module, engine)` -- building the PassManager and
`PassManager.run` -- with `time.perf_counter`; the verifier is off inside the timed
region (the result is verified once afterwards, untimed). Runs of the two pipelines
alternate, and the table reports the median over `--repeat` runs:
µs/op = median pass time / ops in the input module. "ours" is `shardpy-propagate` when it
is registered, else "not available". A pipeline that fails, crashes or times out on one
size is not run on the larger sizes.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import scale  # noqa: E402  (imports jax only when it has to generate modules)
from compare_propagation import (NATIVE, OURS, WORKER, crash_message,  # noqa: E402
                                 first_line, pipeline_available, signal_name)


def time_once(pipeline: str, module: Path, timeout: float) -> dict:
    """One fresh process: {"status", "seconds", "parse_seconds", "message"}."""
    command = [sys.executable, str(WORKER), "--pipeline", pipeline, str(module)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              cwd=BENCH_DIR.parent)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "message": f"more than {timeout:.0f} s"}
    if proc.returncode < 0:
        return {"status": "crashed",
                "message": f"{signal_name(-proc.returncode)}: {crash_message(proc.stderr)}"}
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"status": "crashed",
                "message": f"exit {proc.returncode}: {crash_message(proc.stderr)}"}
    if not report["ok"]:
        errors = [d for d in report["diagnostics"] if "error:" in d] or report["diagnostics"]
        return {"status": "failed", "message": first_line(errors[0]) if errors else "failed",
                "seconds": report["pass_seconds"]}
    return {"status": "ok", "seconds": report["pass_seconds"],
            "parse_seconds": report["parse_seconds"], "ops": report["ops"]}


def fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", choices=list(scale.SIZES),
                        default=list(scale.SIZES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per pipeline and size")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run")
    parser.add_argument("--ours", default=OURS, help=f"our pipeline (default: {OURS})")
    parser.add_argument("--native", default=NATIVE, help=f"reference (default: {NATIVE})")
    parser.add_argument("--native-only", action="store_true", help="do not run ours")
    parser.add_argument("--json", type=Path, help="write all runs here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    modules = scale.ensure(args.sizes)
    sides = {"native": args.native, "ours": args.ours}
    available = {side: pipeline_available(text) for side, text in sides.items()}
    if args.native_only:
        available["ours"] = (False, "not run (--native-only)")
    for side, (ok, why) in available.items():
        print(f"{side}: {sides[side]}" + ("" if ok else f": {first_line(why)}"
                                          if why.startswith("not run") else
                                          f" (not available: {first_line(why)})"))

    results: dict[str, dict[str, dict]] = {}
    given_up: dict[str, str] = {}
    for size in args.sizes:
        info = modules[size]
        path, ops = Path(info["path"]), info["ops"]
        results[size] = {"ops": ops, "path": str(path)}
        runs = {side: [] for side in sides}
        for _ in range(args.repeat):
            for side, pipeline in sides.items():
                if not available[side][0] or side in given_up:
                    continue
                run = time_once(pipeline, path, args.timeout)
                runs[side].append(run)
                if run["status"] != "ok":
                    given_up[side] = f"{run['status']} at {size}: {run['message']}"
        for side in sides:
            ok_times = [r["seconds"] for r in runs[side] if r["status"] == "ok"]
            failed = [r for r in runs[side] if r["status"] != "ok"]
            entry = {"runs": runs[side]}
            if not available[side][0]:
                entry["status"] = "not run" if available[side][1].startswith("not run") \
                    else "not available"
            elif failed:
                entry["status"] = f"{failed[0]['status']}: {failed[0]['message']}"
            elif not runs[side]:
                entry["status"] = f"skipped ({given_up.get(side, '')})"
            else:
                median = statistics.median(ok_times)
                entry.update(status="ok", seconds=median, min_seconds=min(ok_times),
                             us_per_op=median * 1e6 / ops)
            results[size][side] = entry
        print(f"  {size}: {ops} ops: " + ", ".join(
            f"{side} {fmt(results[size][side].get('us_per_op'))} µs/op"
            if results[size][side]["status"] == "ok" else f"{side} {results[size][side]['status']}"
            for side in sides), file=sys.stderr)

    print()
    print(markdown(results, args, available))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"native_pipeline": args.native,
                                         "ours_pipeline": args.ours, "repeat": args.repeat,
                                         "sizes": results}, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


def markdown(results: dict, args, available: dict) -> str:
    lines = ["| module | ops | native ms | native µs/op | ours ms | ours µs/op | ours / native |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for size, r in results.items():
        cells = [f"scale_{size}", str(r["ops"])]
        per_op = {}
        for side in ("native", "ours"):
            entry = r[side]
            if entry["status"] == "ok":
                per_op[side] = entry["us_per_op"]
                cells += [fmt(entry["seconds"] * 1e3, 1), fmt(entry["us_per_op"])]
            else:
                status = entry["status"].split(":")[0]
                cells += [status, "–"]
        ratio = per_op["ours"] / per_op["native"] if len(per_op) == 2 else None
        cells.append(fmt(ratio, 1) + ("×" if ratio is not None else ""))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for side in ("ours", "native"):
        lines.append(f"- {side} scaling, µs/op(50k) / µs/op(1k): {scaling(results, side)}")
    lines.append(f"- median of {args.repeat} runs, each in a fresh process; pass time only "
                 f"(parse and verification excluded)")
    for side in ("native", "ours"):
        ok, why = available[side]
        if not ok:
            lines.append(f"- {side}: {first_line(why)}" if why.startswith("not run")
                         else f"- {side}: not available ({first_line(why)})")
    return "\n".join(lines)


def scaling(results: dict, side: str) -> str:
    small, large = results.get("1k", {}).get(side, {}), results.get("50k", {}).get(side, {})
    if small.get("status") != "ok" or large.get("status") != "ok":
        return "–"
    return f"{large['us_per_op'] / small['us_per_op']:.2f}"


if __name__ == "__main__":
    sys.exit(main())
