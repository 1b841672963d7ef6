#!/usr/bin/env python3
"""The real-model benchmark (issue 14): every program of bench/models/ under `jax.jit` and
`shardpy.jit`, on the same sharded inputs, one markdown table.

    python bench/models/run.py                              # every program, 20 timed runs
    python bench/models/run.py --programs 'gpt_*' mlp_dp_tp_mesh2x4 --runs 50
    python bench/models/run.py --json models.json           # every measurement
    python bench/models/run.py --platform gpu               # on the GPU backend
    python bench/models/run.py --list                       # the programs

Programs: every bench/models/*.py (but common.py and run.py) that defines
`PROGRAMS: list[ModelProgram]` (bench/models/common.py), imported by file. For each, the
mesh is a `jax.sharding.Mesh` over the first prod(mesh_shape) devices of the platform
(8 CPU host devices on cpu), `build(mesh)` gives the step and its sharded arguments, and
the step is run under `jax.jit(step, donate_argnums=donate)` and
`shardpy.jit(step, donate_argnums=donate)` (shardpy.jit supports donation: both donate
the same arguments).

Measured, per side:
  first call   wall clock of the first call of a fresh jit object (trace, lower, compile,
               run, results awaited), JAX's in-memory caches cleared before it and its
               persistent compilation cache off;
  outputs      every output leaf of the two first calls compared: integers exactly, floats
               with shardpy-run's tolerance (shardpy.runtime.arrays.compare: atol 1e-5 +
               rtol 1e-4 × the output's largest magnitude); the max abs difference. A
               float leaf outside it is judged against the step run in float64 (JAX's x64
               mode, float32 arguments widened): "match in float64" where shardpy's result
               is within the tolerance of it or at most 4× as far from it as jax.jit's
               (the fuzzer's rule: both round, in other orders), else MISMATCH;
  step time    median wall clock over --runs calls after 3 warm-ups, each awaited with
               jax.block_until_ready; the two sides alternate call by call. A train step's
               outputs are fed back as its next inputs where they have the inputs'
               structure, shapes, dtypes and shardings (a leading run of the arguments:
               (params, opt_state, batch) -> (params, opt_state, loss) feeds two back);
               otherwise the arguments are reused (fresh copies, outside the timing, of any
               donated one). The ratio is of the two medians; the paired ratio is the
               median (and quartiles) of each round's shardpy call over its jax call,
               made one after the other: the spread of the noise the ratio carries;
  A/A          a second jax.jit of the step timed in the same rounds (jax, shardpy, jax
               again, then reversed): its paired ratio over jax's is the noise itself;
               the verdict, whether shardpy's round ratios differ from the A/A's (a
               Mann-Whitney U test, p < 0.01: faster, slower; else within noise;
               bench/noise_control.py);
  instructions how many instructions of the optimized HLO only one side's executable has
               (opcode and result shape): 0 / 0, the same program as jax.jit's;
  collectives  read by shardpy.runtime.hlo_collectives out of the optimized HLO of the executable
               each side runs: `jax.jit(step).lower(*args).compile()` and, for shardpy, the
               jax.jit that runs its per-device program (inputs laid out, shard_map, the
               inlined per-device module), lowered and compiled the same way; static counts
               by kind and cost-weighted bytes per device (shardpy.runtime.stats);
  peak memory  XLA's memory_analysis() of those executables, per device: argument +
               output + temp - alias (jaxlib_bridge.memory_stats; XLA's own
               peak_memory_in_bytes, which bench/compare_xla.py reports, is in the JSON:
               on CPU it came out below argument + temp).

Every program runs in its own process (a crash or hang costs a row; --in-process runs
them here). A jit that raises is a row with the error's first line, never the end of the
run.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

MODELS_DIR = pathlib.Path(__file__).resolve().parent
BENCH_DIR = MODELS_DIR.parent
ROOT = BENCH_DIR.parent
NOT_PROGRAMS = {"common.py", "run.py", "warm_start.py"}
CPU_DEVICES = 8
WARMUP = 3
MIN_RUNS = 20
SIDES = ("jax", "shardpy")

for _path in (MODELS_DIR, BENCH_DIR, ROOT):  # `from common import ...`
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import compare_xla  # noqa: E402  (bench/: its tolerance, selection, formatting, header)
import noise_control as noise  # noqa: E402  (bench/: the A/A control, executables compared)


# =========================================================================== environment


def setup_environment(platform: str) -> None:
    """Before anything initialises jax's backends: 8 CPU host devices on cpu; no
    persistent compilation cache (first-call times are cold)."""
    from shardpy.ir.jaxlib_bridge import quiet_logs, request_host_devices

    if platform == "cpu":
        os.environ["JAX_PLATFORMS"] = "cpu"
        request_host_devices(CPU_DEVICES)
    quiet_logs()
    import jax

    jax.config.update("jax_enable_compilation_cache", False)


def platform_devices(platform: str) -> list:
    import jax

    try:
        return list(jax.devices(platform))
    except RuntimeError as err:
        raise SystemExit(f"run.py: no {platform} backend here ({str(err).splitlines()[0]}); "
                         f"run with --platform cpu, or on a machine with a GPU") from None


# =========================================================================== programs


def discover() -> tuple[dict, dict]:
    """{program name: (module file, program)}, {module file: import error}."""
    programs, broken = {}, {}
    for path in sorted(MODELS_DIR.glob("*.py")):
        if path.name in NOT_PROGRAMS or path.name.startswith("_"):
            continue
        try:
            spec = importlib.util.spec_from_file_location(f"bench_models_{path.stem}", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
        except Exception as err:
            broken[path.name] = _first_line(err)
            continue
        for program in getattr(module, "PROGRAMS", None) or ():
            if program.name in programs:
                raise SystemExit(f"run.py: program {program.name} is defined twice "
                                 f"({programs[program.name][0]}, {path.name})")
            programs[program.name] = (path.name, program)
    return programs, broken


def make_mesh(program, devices):
    import jax
    import numpy as np

    need = math.prod(program.mesh_shape)
    if len(devices) < need:
        raise RuntimeError(f"the mesh {program.mesh_shape} needs {need} devices, the "
                           f"{devices[0].platform} backend has {len(devices)}")
    return jax.sharding.Mesh(np.array(devices[:need]).reshape(program.mesh_shape),
                             program.axis_names)


# =========================================================================== one program


def measure(program, module_file: str, runs: int, platform: str, hlo_dir=None) -> dict:
    """Everything about one program; a failure is recorded in the row, not raised."""
    import jax
    import shardpy

    row = {"program": program.name, "module": module_file,
           "mesh": _mesh_name(program),
           "description": program.description, "tags": list(program.tags),
           "donate": list(program.donate),
           "outputs": {"status": "n/a"}, "ratio": None,
           **{side: {"status": "not run"} for side in SIDES}}
    try:
        mesh = make_mesh(program, platform_devices(platform))
        step, args = program.build(mesh)
        args = tuple(args)
    except Exception as err:
        for side in SIDES:
            row[side] = _failed("build", err)
        return row

    jits = {"jax": lambda: jax.jit(step, donate_argnums=program.donate),
            "shardpy": lambda: shardpy.jit(step, donate_argnums=program.donate)}
    jitted, first = {}, {}
    for side in SIDES:  # first calls, each cold
        jax.clear_caches()
        try:
            jitted[side] = jits[side]()
            call_args = _fresh(args, program.donate)
            start = time.perf_counter()
            out = jitted[side](*call_args)
            jax.block_until_ready(out)
            row[side]["first_call_s"] = time.perf_counter() - start
            first[side] = out
            row[side]["status"] = "ok"
        except Exception as err:
            row[side] = _failed("first call", err)
    if "jax" in first:  # the A/A control: a second jit object, the same executable
        try:
            jitted[noise.CONTROL] = jax.jit(step, donate_argnums=program.donate)
            first[noise.CONTROL] = jitted[noise.CONTROL](*_fresh(args, program.donate))
            row[noise.CONTROL] = {"status": "ok"}
        except Exception as err:
            row[noise.CONTROL] = _failed("first call", err)
            jitted.pop(noise.CONTROL, None)
    if "jax" in first and "shardpy" in first:
        row["outputs"] = compare_outputs(first["jax"], first["shardpy"])
        if row["outputs"]["status"] != "match" and row["outputs"].get("float_leaves"):
            try:  # float32 rounding or a wrong answer? (the fuzzer's float64 rule)
                row["outputs"] = compare_outputs(first["jax"], first["shardpy"],
                                                 float64_outputs(step, args, program.donate))
            except Exception as err:
                row["outputs"]["details"].append(f"float64 run failed: {_first_line(err)}")

    _time(row, jitted, first, args, program.donate, runs)
    hlo = {}
    for side in SIDES:
        if side not in jitted or row[side]["status"] != "ok":
            continue
        try:
            compiled = (jitted[side].lower(*args).compile() if side == "jax"
                        else _shardpy_compiled(jitted[side], args))
            row[side].update(_executable_stats(compiled, math.prod(program.mesh_shape)))
            if side == "shardpy":
                row[side]["partitioned_module_collectives"] = \
                    jitted[side].lower(*args).report.get("collectives")
            hlo[side] = compiled.as_text()
            if hlo_dir is not None:
                hlo_dir.mkdir(parents=True, exist_ok=True)
                (hlo_dir / f"{program.name}.{side}.hlo.txt").write_text(hlo[side])
        except Exception as err:
            row[side].setdefault("errors", []).append(
                f"executable stats: {_first_line(err)}")
    jx, sp = row["jax"].get("median_ms"), row["shardpy"].get("median_ms")
    if jx and sp:
        row["ratio"] = sp / jx
        row["paired"] = noise.paired_ratios(row["jax"].get("times_ms", []),
                                            row["shardpy"].get("times_ms", []))
    if jx:  # each round's second jax.jit call over its first
        reference, again = (row["jax"].get("times_ms", []),
                            row.get(noise.CONTROL, {}).get("times_ms", []))
        row["aa"] = noise.paired_ratios(reference, again)
        row["verdict"], row["p_value"] = noise.verdict(
            noise.round_ratios(reference, row["shardpy"].get("times_ms", [])),
            noise.round_ratios(reference, again))
    if len(hlo) == 2:
        row["instructions"] = noise.instruction_difference(hlo["jax"], hlo["shardpy"])
    return row


def _mesh_name(program) -> str:
    return "×".join(map(str, program.mesh_shape)) + f" ({', '.join(program.axis_names)})"


def _failed(stage: str, err: BaseException) -> dict:
    if os.environ.get("SHARDPY_DEBUG"):
        traceback.print_exc()
    return {"status": "failed", "stage": stage, "error": _first_line(err),
            "error_full": f"{type(err).__name__}: {err}"[:4000]}


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


def _fresh(args, donate) -> tuple:
    """`args` with the donated ones copied to new buffers on the same shardings
    (committed or not, like the originals)."""
    import jax
    import numpy as np

    def copy(x):
        if isinstance(x, jax.Array):
            # An uncommitted array (e.g. optax's step count made outside any jit) stays
            # uncommitted: jit may place it with the others, as it did the original.
            return jax.device_put(np.asarray(x), x.sharding if x.committed else None)
        return x

    return tuple(jax.tree.map(copy, a) if i in donate else a for i, a in enumerate(args))


def _fed_back(args, out) -> int:
    """How many leading arguments the step's outputs can replace: the outputs' first k
    elements (or all of them, if the output has the arguments' structure) match the first
    k arguments in structure, shapes, dtypes and shardings."""
    import jax

    def same(a, b) -> bool:
        la, ta = jax.tree.flatten(a)
        lb, tb = jax.tree.flatten(b)
        if ta != tb:
            return False
        for x, y in zip(la, lb):
            if not (isinstance(x, jax.Array) and isinstance(y, jax.Array)):
                return False
            if x.shape != y.shape or x.dtype != y.dtype or \
                    not x.sharding.is_equivalent_to(y.sharding, x.ndim):
                return False
        return True

    if same(args, out):
        return len(args)
    if not isinstance(out, (tuple, list)):
        return 0
    k = 0
    while k < min(len(args), len(out)) and same(args[k], out[k]):
        k += 1
    return k


def _time(row, jitted, first, args, donate, runs) -> None:
    """Median step time per side: WARMUP + runs calls each, sides alternating."""
    import jax

    state = {}
    for side in jitted:
        if side not in first:
            continue
        fed = _fed_back(args, first[side])
        state[side] = {"fed": fed, "out": first[side], "times": []}
        row[side]["fed_back_args"] = fed
    sides = list(state)
    for i in range(WARMUP + runs):
        for side in (sides if i % 2 == 0 else sides[::-1]):
            s = state[side]
            if s is None:
                continue
            fed = s["fed"]
            base = _fresh(args, [d for d in donate if d >= fed])
            call_args = base if fed == 0 else tuple(s["out"][:fed]) + base[fed:]
            try:
                start = time.perf_counter()
                out = jitted[side](*call_args)
                jax.block_until_ready(out)
                elapsed = time.perf_counter() - start
            except Exception as err:
                row[side] = {**row[side], **_failed("timing", err), "status": "failed"}
                state[side] = None
                continue
            s["out"] = out
            if i >= WARMUP:
                s["times"].append(elapsed)
    for side, s in state.items():
        if s is not None and s["times"]:
            row[side]["median_ms"] = statistics.median(s["times"]) * 1e3
            row[side]["times_ms"] = [t * 1e3 for t in s["times"]]


def _shardpy_compiled(jitted, args):
    """The executable shardpy.jit runs for `args` (its Lowered is cached by the first
    call's abstract signature)."""
    return jitted.lower(*args).compile()


def _executable_stats(compiled, devices: int) -> dict:
    from shardpy.runtime import hlo_collectives
    from shardpy.ir import jaxlib_bridge

    found = hlo_collectives.read_collectives(
        jaxlib_bridge.hlo_instructions(jaxlib_bridge.loaded_executable(compiled),
                                       hlo_collectives.OPCODES), devices)
    memory = jaxlib_bridge.memory_stats(compiled.memory_analysis())
    peak = jaxlib_bridge.held_bytes(memory)  # (XLA's peak_memory_in_bytes: in the JSON)
    by_kind = found.by_kind()
    return {"collectives": by_kind,
            "collective_count": sum(c["count"] for c in by_kind.values()),
            "collective_bytes_per_device": found.total_bytes, "memory": memory,
            "peak_memory": peak}


def compare_outputs(jax_out, sp_out, exact=None) -> dict:
    """Every output leaf of the two sides compared (integers exactly, floats within
    RTOL/ATOL of the leaf's magnitude); with `exact` (the outputs of the step run in
    float64), a float leaf that differs passes when shardpy's result is about as close
    to float64 as jax.jit's float32 result (arrays.judge_in_float64: two float32 programs
    sum in other orders, and adam's update divides by a tiny second moment)."""
    import jax
    import numpy as np
    from shardpy.runtime import arrays

    jl, jt = jax.tree.flatten(jax_out)
    sl, st = jax.tree.flatten(sp_out)
    if jt != st:
        return {"status": "MISMATCH", "max_abs_diff": None,
                "details": [f"output structures differ: jax {jt}, shardpy {st}"]}
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(
        jax_out)[0]]
    exact_leaves = jax.tree.leaves(exact) if exact is not None else [None] * len(jl)
    comparisons, lines = [], []
    judgeable = wrong = 0  # float leaves outside the tolerance; those not judged right
    for path, j, s, e in zip(paths, jl, sl, exact_leaves):
        j, s = np.asarray(j), np.asarray(s)
        c = arrays.compare(f"out{path}", s, j, compare_xla.RTOL, compare_xla.ATOL)
        comparisons.append(c)
        if c.ok:
            continue
        if arrays.float64_judgeable(s, j):
            judgeable += 1
            if e is not None:
                verdict = arrays.judge_in_float64(f"out{path}", s, j, np.asarray(e),
                                                  compare_xla.RTOL, compare_xla.ATOL,
                                                  reference_is="jax.jit")
                lines.append(verdict.line)
                if verdict.ok:
                    continue
        wrong += 1
        lines.append(c.line())
    # Issue 15: every output's sharding == jax.jit's (NamedSharding equality: the same
    # mesh and the same spec, trailing Nones included).
    unequal = [f"out{path}: sharding {getattr(s, 'sharding', None)} != jax's "
               f"{getattr(j, 'sharding', None)}" for path, j, s in zip(paths, jl, sl)
               if getattr(j, "sharding", None) != getattr(s, "sharding", None)]
    status = "MISMATCH" if wrong else "match in float64" if judgeable else "match"
    return {"status": status, "leaves": len(comparisons), "float_leaves": judgeable,
            "max_abs_diff": max((c.max_abs_error for c in comparisons), default=0.0),
            "shardings_differ": len(unequal), "details": lines + unequal}


def float64_outputs(step, args, donate):
    """The step under jax.jit with every float32 argument leaf widened to float64 (the
    same values, the same shardings), in JAX's x64 mode."""
    import jax
    import numpy as np

    with jax.enable_x64(True):
        def widen(x):
            if isinstance(x, jax.Array) and x.dtype == np.float32:
                return jax.device_put(np.asarray(x, np.float64), x.sharding)
            return x
        wide = jax.tree.map(widen, _fresh(args, donate))
        return jax.tree.map(np.asarray, jax.jit(step)(*wide))


def run_isolated(name: str, program, args) -> dict:
    """measure() in a fresh process; a crash or timeout becomes a failed row."""
    with tempfile.TemporaryDirectory() as tmp:
        result = pathlib.Path(tmp) / "row.json"
        command = [sys.executable, str(pathlib.Path(__file__).resolve()), "--worker", name,
                   "--result", str(result), "--runs", str(args.runs),
                   "--platform", args.platform]
        if args.hlo_dir:
            command += ["--hlo-dir", str(args.hlo_dir)]
        try:
            proc = subprocess.run(command, capture_output=True, text=True,
                                  timeout=args.timeout, cwd=ROOT)
            error = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        except subprocess.TimeoutExpired:
            error = f"timed out after {args.timeout} s"
        if result.exists():
            return json.loads(result.read_text())
    side = {"status": "failed", "stage": "crashed", "error": error}
    return {"program": name, "mesh": _mesh_name(program), "description": program.description,
            "tags": list(program.tags),
            "outputs": {"status": "n/a"}, "ratio": None, "crashed": True,
            **{s: dict(side) for s in SIDES}}


# =========================================================================== the table


def _fmt_bytes(n) -> str:
    if n is None:
        return "–"
    for unit, size in (("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def _fmt_collectives(side: dict) -> str:
    if "collectives" not in side:
        return "–"
    if not side["collectives"]:
        return "none"
    return (f"{side['collective_count']} ({compare_xla._fmt_counts(side['collectives'])}) / "
            f"{_fmt_bytes(side['collective_bytes_per_device'])}")


def _fmt(value, digits) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _outputs_cell(row) -> str:
    jx, sp = row["jax"], row["shardpy"]
    if jx["status"] == sp["status"] == "failed" and jx.get("stage") in ("build", "crashed"):
        return f"**failed** ({jx['stage']}): {jx['error']}"
    for side in SIDES:
        if row[side]["status"] == "failed":
            return f"**{side} failed** ({row[side].get('stage')}): {row[side]['error']}"
    out = row["outputs"]
    if out["status"] == "n/a":
        return "–"
    diff = out.get("max_abs_diff")
    cell = f"{out['status']} ({diff:.2g})" if diff is not None else out["status"]
    differ = out.get("shardings_differ")
    if differ is not None:
        cell += ", shardings ==" if not differ else f", **{differ} shardings differ**"
    return cell


def _fmt_ratio(ratio) -> str:
    return "–" if ratio is None else f"{ratio:.2f}×"


def geomean(ratios) -> float | None:
    ratios = [r for r in ratios if r]
    return math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None


def render(rows: list[dict], header: dict, broken: dict) -> str:
    lines = [f"Measured at commit {header['commit']} on {header['machine']}, jax/jaxlib "
             f"{header['jax']}, {header['device_note']}, median of {header['runs']} runs "
             f"per side after {WARMUP} warm-ups.", "",
             "| program | mesh | outputs match (max diff) | step ms jax | step ms shardpy | "
             "ratio | paired ratio (quartiles) | A/A: jax / jax (quartiles) | "
             "collectives jax (count/bytes) | "
             "collectives shardpy | peak MiB jax | peak MiB shardpy | first call s jax | "
             "first call s shardpy | HLO instructions jax-only / shardpy-only |",
             "|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        jx, sp = r["jax"], r["shardpy"]
        mib = [None if s.get("peak_memory") is None else s["peak_memory"] / 2 ** 20
               for s in (jx, sp)]
        lines.append(
            f"| {r['program']} | {r['mesh']} | {_outputs_cell(r)} | "
            f"{_fmt(jx.get('median_ms'), 2)} | {_fmt(sp.get('median_ms'), 2)} | "
            f"{_fmt_ratio(r['ratio'])} | {noise.fmt_paired(r.get('paired'))} | "
            f"{noise.fmt_paired(r.get('aa'))} | "
            f"{_fmt_collectives(jx)} | {_fmt_collectives(sp)} | {_fmt(mib[0], 2)} | "
            f"{_fmt(mib[1], 2)} | {_fmt(jx.get('first_call_s'), 2)} | "
            f"{_fmt(sp.get('first_call_s'), 2)} | "
            f"{noise.fmt_difference(r.get('instructions'))} |")
    g = geomean(r["ratio"] for r in rows)
    timed = sum(r["ratio"] is not None for r in rows)
    lines += ["", "Geometric mean of the step-time ratios (shardpy / jax): "
              + ("–" if g is None else f"{g:.3f}× over {timed} program"
                 f"{'s' if timed != 1 else ''}"), noise.verdict_line(rows), ""]
    notes = [
        "Donation: shardpy.jit supports donate_argnums, so both sides donate each "
        "program's `donate` arguments.",
        "Collectives: static counts (a collective in a loop body counts once) in the "
        "optimized HLO of the executable each side runs (for shardpy: the jax.jit that "
        "lays out its inputs and runs its per-device module in a shard_map); AR "
        "all-reduce, AG all-gather, RS reduce-scatter, A2A all-to-all, CP "
        "collective-permute; bytes: cost-weighted bytes each device sends "
        "(python/shardpy/sharding/collective_time.py).",
        "Peak MiB: per device, from XLA's memory_analysis() of that executable: argument + "
        "output + temp - alias (the JSON also has XLA's peak_memory_in_bytes, which on CPU "
        "came out below argument + temp on mlp_dp_tp_mesh2x4).",
        "A/A: a second jax.jit of the same step (the same executable) timed in the same "
        "rounds (jax, shardpy, jax again; reversed the next round), each round's second "
        "jax call over its first: the noise a ratio carries on that program in that run "
        "(bench/noise_control.py).",
        "HLO instructions: the two executables' optimized HLO as multisets of (opcode, "
        "result shape): how many only jax.jit's has / only shardpy's has, of jax.jit's "
        "total; 0 / 0 is the same program.",
        "First call: trace + lower + compile (+ shardpy's partitioning) + first run, wall "
        "clock, JAX's caches cleared before it.",
        "Outputs: every leaf of the first call, integers exactly, floats within 1e-5 + "
        "1e-4 × the leaf's largest magnitude (shardpy.runtime.arrays.compare); \"match "
        "in float64\": a float leaf outside that is within it of the step run in float64, "
        "or at most 4× as far from it as jax.jit's float32 result (both round); "
        "\"shardings ==\": every output's NamedSharding == jax.jit's (issue 15).",
    ]
    lines += ["Notes:", *[f"- {n}" for n in notes]]
    details = []
    for r in rows:
        for side in SIDES:
            s = r[side]
            if side == "shardpy" and s["status"] == "failed" and s.get("stage") in (
                    "build", "crashed"):
                continue  # the same failure as jax's: the program, not a jit
            if s["status"] == "failed":
                who = "the program" if s.get("stage") in ("build", "crashed") else side
                details.append(f"- {r['program']}: {who} failed at {s.get('stage')}: "
                               f"{s['error']}")
            for e in s.get("errors", []):
                details.append(f"- {r['program']}: {side}: {e}")
        for d in r["outputs"].get("details", []):
            details.append(f"- {r['program']}: {d}")
        fed = {side: r[side].get("fed_back_args") for side in SIDES}
        if None not in fed.values() and fed["jax"] != fed["shardpy"]:
            details.append(f"- {r['program']}: outputs fed back as the next inputs: "
                           f"{fed['jax']} arguments under jax, {fed['shardpy']} under shardpy "
                           f"(an output's sharding differs from its argument's)")
        tags = [t for t in r.get("tags", []) if t != "train"]
        if tags:
            details.append(f"- {r['program']}: tags {', '.join(tags)}")
    for module, error in broken.items():
        details.append(f"- bench/models/{module} failed to import: {error}")
    if details:
        lines += ["", "Details:", *details]
    return "\n".join(lines)


# =========================================================================== main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--programs", nargs="+", metavar="NAME",
                        help="programs: names or shell patterns, space or comma separated "
                             "(default: all)")
    parser.add_argument("--runs", type=int, default=MIN_RUNS, metavar="N",
                        help=f"timed calls per side (median reported; default {MIN_RUNS})")
    parser.add_argument("--platform", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--json", type=pathlib.Path, metavar="PATH",
                        help="write every measurement as JSON")
    parser.add_argument("--hlo-dir", type=pathlib.Path, metavar="DIR",
                        help="write each side's optimized HLO there")
    parser.add_argument("--list", action="store_true", help="list the programs and exit")
    parser.add_argument("--in-process", action="store_true",
                        help="run every program in this process (no isolation)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per program")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--result", type=pathlib.Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    setup_environment(args.platform)
    import jax

    devices = platform_devices(args.platform)
    programs, broken = discover()
    if args.worker:
        module_file, program = programs[args.worker]
        row = measure(program, module_file, args.runs, args.platform, args.hlo_dir)
        args.result.write_text(json.dumps(row, default=float))
        return 0
    if args.list:
        for name, (module_file, program) in programs.items():
            print(f"{name}  ({module_file}, mesh {program.mesh_shape}) {program.description}")
        for module_file, error in broken.items():
            print(f"{module_file}: not importable: {error}")
        return 1 if broken else 0
    if args.runs < MIN_RUNS:
        print(f"run.py: note: --runs {args.runs} is under the benchmark's {MIN_RUNS}",
              file=sys.stderr)

    names = compare_xla.select(args.programs, list(programs))
    device_note = (f"{CPU_DEVICES} CPU host devices" if args.platform == "cpu" else
                   f"{len(devices)} × {devices[0].device_kind}")
    header = {"commit": compare_xla._commit(), "machine": compare_xla._machine(),
              "jax": jax.__version__, "platform": args.platform, "device_note": device_note,
              "runs": args.runs, "warmup": WARMUP}
    rows = []
    for name in names:
        print(f"[{len(rows) + 1}/{len(names)}] {name} ...", file=sys.stderr, flush=True)
        if args.in_process:
            module_file, program = programs[name]
            rows.append(measure(program, module_file, args.runs, args.platform, args.hlo_dir))
        else:
            rows.append(run_isolated(name, programs[name][1], args))
    print(render(rows, header, broken))
    if args.json:
        summary = {"geomean_ratio": geomean(r["ratio"] for r in rows),
                   "import_errors": broken}
        args.json.write_text(json.dumps({"header": header, "summary": summary,
                                         "programs": rows}, indent=2, default=float) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
