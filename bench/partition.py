#!/usr/bin/env python3
"""Time the whole partitioner on deep modules: shardpy's four passes vs native Shardy's.

    python bench/partition.py                      # 1k, 10k, 50k ops; 3 runs per pipeline
    python bench/partition.py --sizes 1k 10k --repeat 5 --json partition.json
    python bench/partition.py --worker ours bench/.cache/scale_1k.mlir   # one run, JSON

The modules come from bench/scale.py (generated into bench/.cache/ when missing or stale).
Three pipelines, every pass a top-level element so each is timed on its own:

  ours         shardpy-propagate, shardpy-choose-shardings, shardpy-insert-reshards,
               shardpy-reshard-to-collectives, shardpy-to-local: the four passes native
               Shardy has counterparts of, and the whole-program choice between the first
               two, which Shardy has none of (its own row; the table's totals count it,
               and "four passes" is the total without it). shardpy-partition also runs
               shardpy-combine-collectives on the per-device module
  native       sdy-propagation-pipeline, sdy-insert-explicit-reshards{enable-full-version=true},
               sdy-reshard-to-collectives, sdy-convert-global-to-local
               (the passes jaxlib 0.10.2 registers; without enable-full-version the
               explicit-reshards pass leaves most ops alone and global-to-local then
               produces invalid IR)
  native+chlo  chlo-legalize-to-stablehlo first, then native: the scale modules contain
               chlo.square, which sdy-convert-global-to-local cannot lower

Every run is a fresh process (this script with --worker): it parses the module once,
builds `Pipeline(..., PipelineOptions(verify_each=False, record_steps=True))`, then times
`pipeline.run(module, engine)` with `time.perf_counter` (total) while the pipeline's
step markers record each pass's seconds (`pipeline.steps`). The result is verified once
afterwards, untimed. Native passes can abort the process (Shardy CHECK failures): each
completed step is printed (flushed) as it finishes, so a crash still reports the
passes that ran, and the crash itself is reported with its `Check failed` line. Runs of
the three pipelines alternate; the table shows the median of `--repeat` runs. A
pipeline that fails, crashes or times out on one size is not run on the larger ones.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

OURS = ["shardpy-propagate", "shardpy-choose-shardings", "shardpy-insert-reshards",
        "shardpy-reshard-to-collectives", "shardpy-to-local"]
NATIVE = ["sdy-propagation-pipeline", "sdy-insert-explicit-reshards{enable-full-version=true}",
          "sdy-reshard-to-collectives", "sdy-convert-global-to-local"]
LEGALIZE = "chlo-legalize-to-stablehlo"
SIDES = {"ours": OURS, "native": NATIVE, "native+chlo": [LEGALIZE] + NATIVE}
STAGES = ["propagate", "choose-shardings", "insert-reshards", "reshard-to-collectives",
          "to-local"]
CHOICE = "choose-shardings"  # ours only: no native counterpart
_STAGE_OF = {name.split("{")[0]: stage for names, stages in
             ((OURS, STAGES), (NATIVE, [s for s in STAGES if s != CHOICE]))
             for name, stage in zip(names, stages)}


def stage_of(element: str) -> str | None:
    """The partitioner stage a pipeline element belongs to (None: preprocessing)."""
    return _STAGE_OF.get(element.split("{")[0])


# --------------------------------------------------------------------------- worker


def worker(side: str, module_path: Path) -> int:
    """One pipeline on one module, in this process. Prints one JSON line per completed
    step ({"step", "seconds"}) as it happens, then a final JSON report."""
    from _worker import count_ops

    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.ir.io import parse_module
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline, PipelineOptions

    class StreamingPipeline(Pipeline):
        def _marker(self, step):
            inner = super()._marker(step)

            def run(op, pass_):
                inner(op, pass_)
                if step is not None:
                    record = self.steps[-1]
                    print(json.dumps({"step": record.name, "seconds": record.seconds}),
                          flush=True)

            return run

    elements = SIDES[side]
    report = {"ok": False, "side": side, "ops": None, "total_seconds": None, "steps": [],
              "failed_at": None, "message": ""}
    context = make_context()
    engine = DiagnosticEngine(str(module_path))
    pipeline = StreamingPipeline(",".join(elements), context,
                                 PipelineOptions(verify_each=False, record_steps=True))
    with engine.capturing(context):
        module = parse_module(module_path.read_text(encoding="utf-8"), context, engine)
        if module is None:
            report["message"] = "parse error"
        else:
            report["ops"] = count_ops(module.operation)
            start = time.perf_counter()
            ok = pipeline.run(module, engine)
            report["total_seconds"] = time.perf_counter() - start
            report["steps"] = [{"step": s.name, "seconds": s.seconds} for s in pipeline.steps]
            if ok:
                try:
                    module.operation.verify()
                except Exception as err:  # the result is not valid IR
                    ok = False
                    report["failed_at"] = "verify"
                    report["message"] = f"result does not verify: {first_line(str(err))}"
            else:
                done = len(pipeline.steps)
                report["failed_at"] = pipeline.elements[done].text() if done < len(
                    pipeline.elements) else "?"
                errors = [d.render() for d in engine.diagnostics if d.severity == "error"]
                report["message"] = first_line(errors[0]) if errors else "failed"
            report["ok"] = ok
    print(json.dumps(report), flush=True)
    return 0 if report["ok"] else 1


# --------------------------------------------------------------------------- driver


def first_line(text: str) -> str:
    return text.strip().splitlines()[0][:300] if text.strip() else ""


def run_once(side: str, module: Path, timeout: float) -> dict:
    """One fresh process: {"status", "total", "steps": {element: seconds}, "message"}."""
    from compare_propagation import crash_message, signal_name

    command = [sys.executable, str(Path(__file__).resolve()), "--worker", side, str(module)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              cwd=BENCH_DIR.parent)
        stdout, stderr, code = proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as err:
        stdout = err.stdout.decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
        stderr, code = "", None
    lines = []
    for line in stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    steps = {r["step"]: r["seconds"] for r in lines if "step" in r and "ok" not in r}
    final = next((r for r in reversed(lines) if "ok" in r), None)
    elements = SIDES[side]
    next_element = elements[len(steps)] if len(steps) < len(elements) else "?"
    if code is None:
        return {"status": "timeout", "steps": steps, "failed_at": next_element,
                "message": f"more than {timeout:.0f} s"}
    if final is None:
        why = (f"{signal_name(-code)}: " if code < 0 else f"exit {code}: ") + crash_message(stderr)
        return {"status": "crashed", "steps": steps, "failed_at": next_element, "message": why}
    if not final["ok"]:
        return {"status": "failed", "steps": steps, "failed_at": final["failed_at"],
                "message": final["message"], "ops": final["ops"]}
    return {"status": "ok", "steps": steps, "total": final["total_seconds"],
            "ops": final["ops"]}


def summarize(runs: list[dict], side: str) -> dict:
    """Median per step over the runs (a step counts where it completed), overall status."""
    elements = SIDES[side]
    out = {"runs": runs, "steps": {}}
    for element in elements:
        name = element.split("{")[0]  # steps are recorded under the pass name
        times = [r["steps"][name] for r in runs if name in r["steps"]]
        if times:
            out["steps"][name] = statistics.median(times)
    bad = [r for r in runs if r["status"] != "ok"]
    if bad:
        out["status"] = bad[0]["status"]
        out["failed_at"] = bad[0]["failed_at"]
        out["message"] = bad[0]["message"]
    else:
        out["status"] = "ok"
        out["total"] = statistics.median(r["total"] for r in runs)
    return out


def ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1e3:.1f}"


def ratio(a: float | None, b: float | None) -> str:
    return "–" if a is None or b is None or b == 0 else f"{a / b:.1f}×"


def markdown(results: dict, repeat: int) -> str:
    lines = ["| module | ops | pass | ours ms | native ms | ours / native | "
             "native+chlo ms | ours / native+chlo |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    failures: dict[tuple, list[str]] = {}
    legalize_ms = []
    for size, r in results.items():
        per_side = {}
        for side in SIDES:
            entry = r.get(side)
            stage_times = {}
            cells = {}
            if entry is None or not entry.get("runs"):
                for stage in STAGES + ["four passes", "total"]:
                    cells[stage] = entry["status"] if entry else "not run"
                per_side[side] = (stage_times, cells)
                continue
            failed_stage = stage_of(entry.get("failed_at") or "") if entry["status"] != "ok" \
                else None
            for element, seconds in entry["steps"].items():
                stage = stage_of(element)
                if stage is not None:
                    stage_times[stage] = seconds
            for stage in STAGES:
                if stage in stage_times:
                    cells[stage] = ms(stage_times[stage])
                elif failed_stage == stage:
                    cells[stage] = f"**{entry['status']}**"
                else:
                    cells[stage] = "–"
            if entry["status"] == "ok":
                total = sum(stage_times.values())
                stage_times["total"] = total
                cells["total"] = ms(total)
                four = total - stage_times.get(CHOICE, 0.0)
                stage_times["four passes"] = four
                cells["four passes"] = ms(four)
            else:
                cells["total"] = cells["four passes"] = f"**{entry['status']}**"
                key = (side, entry["status"], entry.get("failed_at"),
                       short_message(entry.get("message", "")))
                failures.setdefault(key, []).append(f"scale_{size}")
            per_side[side] = (stage_times, cells)
        ops = str(r["ops"])
        for stage in STAGES + ["four passes", "total"]:
            ours_t = per_side["ours"][0].get(stage)
            row = [f"scale_{size}" if stage == STAGES[0] else "",
                   ops if stage == STAGES[0] else "", f"**{stage}**" if stage == "total" else stage,
                   per_side["ours"][1][stage], per_side["native"][1][stage],
                   ratio(ours_t, per_side["native"][0].get(stage)),
                   per_side["native+chlo"][1][stage],
                   ratio(ours_t, per_side["native+chlo"][0].get(stage))]
            lines.append("| " + " | ".join(row) + " |")
        legalize = r.get("native+chlo", {}).get("steps", {}).get(LEGALIZE)
        if legalize is not None:
            legalize_ms.append(f"{ms(legalize)} ms (scale_{size})")
    lines.append("")
    lines.append(f"- median of {repeat} runs, each in a fresh process; pass time only (parse "
                 f"and verification excluded); total: every pass of the side; four passes: "
                 f"ours without {CHOICE}, which native has no counterpart of")
    for (side, status, where, message), sizes in failures.items():
        lines.append(f"- {side}: {status} at `{where}` on {', '.join(sizes)}: {message}")
    if legalize_ms:
        lines.append(f"- native+chlo: `{LEGALIZE}` itself (not in the totals): "
                     + ", ".join(legalize_ms))
    return "\n".join(lines)


def short_message(message: str) -> str:
    """A diagnostic without its file:line:col prefix and the op it prints."""
    message = re.sub(r"^\S+:\d+:\d+: (error|warning): ", "", message.strip())
    message = message.split(": %")[0]
    return message[:200]


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--worker"]:
        if len(argv) != 3 or argv[1] not in SIDES:
            print(f"usage: partition.py --worker {{{'|'.join(SIDES)}}} MODULE", file=sys.stderr)
            return 2
        return worker(argv[1], Path(argv[2]))

    import scale  # noqa: E402  (imports jax only when it has to generate modules)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", choices=list(scale.SIZES),
                        default=list(scale.SIZES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per pipeline and size")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run")
    parser.add_argument("--sides", nargs="+", choices=list(SIDES), default=list(SIDES))
    parser.add_argument("--json", type=Path, help="write all runs here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    modules = scale.ensure(args.sizes)
    for side in SIDES:
        print(f"{side}: {','.join(SIDES[side])}" + ("" if side in args.sides else " (not run)"))
    results: dict[str, dict] = {}
    given_up: dict[str, str] = {}
    for size in args.sizes:
        info = modules[size]
        path = Path(info["path"])
        results[size] = {"ops": info["ops"], "path": str(path)}
        runs = {side: [] for side in args.sides}
        for _ in range(args.repeat):
            for side in args.sides:
                if side in given_up:
                    continue
                run = run_once(side, path, args.timeout)
                runs[side].append(run)
        for side in SIDES:
            if side not in args.sides:
                results[size][side] = {"status": "not run", "runs": []}
            elif not runs[side]:
                results[size][side] = {"status": f"skipped ({given_up[side]})", "runs": []}
            else:
                results[size][side] = summarize(runs[side], side)
                if results[size][side]["status"] != "ok" and side not in given_up:
                    # a native failure at the last stage still times the earlier ones on
                    # larger sizes; only crashes and timeouts stop a side
                    if results[size][side]["status"] in ("crashed", "timeout"):
                        given_up[side] = f"{results[size][side]['status']} at {size}"
        print(f"  {size}: {info['ops']} ops: " + ", ".join(
            f"{side} {results[size][side]['status']}"
            + (f" {ms(results[size][side].get('total'))} ms"
               if results[size][side]["status"] == "ok" else "")
            for side in args.sides), file=sys.stderr)

    print()
    print(markdown(results, args.repeat))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"pipelines": SIDES, "repeat": args.repeat,
                                         "sizes": results}, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
