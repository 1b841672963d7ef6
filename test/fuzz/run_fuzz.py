"""Fuzz shardpy's partitioner: random programs, partitioned vs one-device runs.

    python test/fuzz/run_fuzz.py --count 200 --seed 0 [--jobs 2] [--long]
    python test/fuzz/run_fuzz.py --seed 1234 --count 1 -v      # one program, verbosely

Program k of a run is `generate.py --seed S+k`. Each one is parsed, partitioned with
`shardpy-partition` (verifying after every pass), run on the mesh's devices through
PjRt and compared with the unpartitioned program on one device; inputs are
`shardpy.runtime.arrays.random_inputs(..., seed=0)`, exactly what `shardpy-run FILE --check`
uses, so a saved failure reproduces with

    shardpy-run test/fuzz/failures/seed_S.mlir --check

Outcomes: pass; mismatch (outputs differ, or devices holding the same shard disagree);
partition-error (the pipeline reported an error or raised); run-error (the per-device
program did not compile or run); timeout / crash (a worker hung or died: collectives
that never match hang the CPU runtime); invalid (the generator made a program that does
not parse or whose reference does not run: a bug in the fuzzer, not in shardpy).
Failing modules go to --failures (default test/fuzz/failures/), with the outcome on top.

Floats compare within ATOL + RTOL * max|expected|. Float outputs that fail it (finite,
same shape; not integers, NaN/inf or diverging replicas) get the float64 check
(float64_check.py): the same program printed with f64 (`generate.py --float64`) runs
on one device with the same inputs widened, and an output passes when the partitioned
result is within the tolerances of it or at most 4x as far from it as the one-device
float32 result: summation-order noise of cancelling sums, not a bug. Such a pass says
"within float32 rounding" in its detail and is counted in the summary; a failed check
adds "beyond float32 rounding" and both errors to the mismatch.

Workers (--jobs, default: CPU count) are separate processes, each with one MLIR context
and one PjRt client for all its programs; --jobs 0 runs in this process.
"""
from __future__ import annotations

import argparse
import os
import re
import random
import sys
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import float64_check  # noqa: E402
import generate  # noqa: E402
import manual  # noqa: E402

MAX_DEVICES = 30  # the largest mesh the generator draws (generate.ODD_MESHES)
RTOL, ATOL = 1e-4, 1e-5
DEFAULT_FAILURES = HERE / "failures"
PIPELINE = "builtin.module(shardpy-partition)"
# Features.data_flow_edges: the module as Shardy's import leaves it, edges and all.
EDGES_PIPELINE = "builtin.module(sdy-add-data-flow-edges,shardpy-partition)"
# Features.manual, 1 program in 3 of those drawing it (manual.through_gspmd): the module
# as PyTorch/XLA writes it (GSPMD custom calls around the manual region), read back.
GSPMD_PIPELINE = "builtin.module(shardpy-export-gspmd,shardpy-import,shardpy-partition)"
# 1 program in 4 of the others (compact_seed): per-device code in the form whose size does
# not depend on the device count (shardpy-to-local compact=on: groups named by mesh axes,
# #stablehlo.replica_group_mesh_axes; shard offsets from the partition id), as on meshes
# of more than 64 devices.
COMPACT_PIPELINE = (
    "builtin.module(shardpy-import,shardpy-propagate,shardpy-choose-shardings,"
    "shardpy-insert-reshards,shardpy-reshard-to-collectives,"
    "shardpy-to-local{compact=on},shardpy-combine-collectives)")
BYTES_RANKED_PROFILE = HERE.parent / "Inputs" / "bytes_only_profile.json"
FAILING = ("mismatch", "partition-error", "run-error", "timeout", "crash")


def _tolerances(expected) -> tuple[float, float]:
    """(rtol, atol) for an output like `expected`: RTOL and ATOL, or wider for a float
    type narrower than f32 (shardpy.runtime.arrays.default_tolerances)."""
    from shardpy.runtime import arrays

    rtol, atol = arrays.default_tolerances(getattr(expected, "dtype", None))
    return max(RTOL, rtol), max(ATOL, atol)


def set_device_flags(count: int = MAX_DEVICES) -> None:
    """XLA's CPU client makes `count` host devices; must happen before jax starts."""
    flag = f"--xla_force_host_platform_device_count={count}"
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split()
             if not f.startswith("--xla_force_host_platform_device_count")]
    os.environ["XLA_FLAGS"] = " ".join(flags + [flag])
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


@dataclass
class Outcome:
    seed: int
    status: str                 # pass | mismatch | partition-error | run-error | ...
    detail: str = ""            # messages (errors, comparisons)
    seconds: float = 0.0
    num_ops: int = 0
    warnings: list[str] = field(default_factory=list)
    float64_checked: bool = False  # a pass decided by the float64 check
    pipeline: str = PIPELINE       # the pipeline that partitioned it

    @property
    def failed(self) -> bool:
        return self.status in FAILING

    def signature(self) -> str:
        """A coarse class of the failure: status plus the first message, de-numbered."""
        first = next((line for line in self.detail.splitlines() if line.strip()), "")
        first = re.sub(r"^[^:]*:\d+:\d+: ", "", first)       # locations
        first = re.sub(r"<[^<>]*>", "<..>", first)            # shardings, types
        first = re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "N", first)
        return f"{self.status}: {first[:160]}"


class Runner:
    """Runs programs in this process: one MLIR context and one PjRt client for all."""

    def __init__(self, features: generate.Features | None = None):
        set_device_flags()
        from shardpy.ir.jaxlib_bridge import make_context
        from shardpy.pipeline import Pipeline

        self.features = features or generate.Features()
        self.context = make_context()
        self.pipelines = {text: Pipeline(text, self.context)
                          for text in (PIPELINE, EDGES_PIPELINE, GSPMD_PIPELINE,
                                       COMPACT_PIPELINE)}
        self._exporter = Pipeline("builtin.module(shardpy-export-gspmd)", self.context)
        self.pipeline = self.pipelines[PIPELINE]
        self._pipeline = self.pipeline  # the one run_text uses
        self._executor = None

    @property
    def executor(self):
        if self._executor is None:
            from shardpy.runtime import executor as runtime

            self._executor = runtime.Executor("cpu")
        return self._executor

    def run_seed(self, seed: int) -> Outcome:
        program = generate.generate(seed, self.features)

        def widened() -> str:
            return generate.generate(seed, self.features, float_text="f64").text

        bytes_ranked = bytes_ranked_seed(seed, self.features)
        saved = os.environ.get("SHARDPY_COST_PROFILE")
        if bytes_ranked:
            os.environ["SHARDPY_COST_PROFILE"] = str(BYTES_RANKED_PROFILE)
        chosen = self.pipeline_text(seed, program.text)
        self._pipeline = self.pipelines[chosen]
        try:
            outcome = self.run_text(program.text, seed, widened)
            outcome.pipeline = chosen
        finally:
            self._pipeline = self.pipeline
            if bytes_ranked:
                if saved is None:
                    os.environ.pop("SHARDPY_COST_PROFILE", None)
                else:
                    os.environ["SHARDPY_COST_PROFILE"] = saved
        outcome.num_ops = program.num_ops
        return outcome

    def pipeline_text(self, seed: int, text: str) -> str:
        """The pipeline `seed`'s program goes through: GSPMD_PIPELINE for the programs
        manual.through_gspmd picks whose module GSPMD can express (no sdy-only form:
        groups, unreduced axes, edges, sub-axes GSPMD cannot tile, ...), else
        EDGES_PIPELINE (data_flow_edges_seed), COMPACT_PIPELINE (compact_seed) or
        PIPELINE."""
        from jaxlib.mlir import ir

        from shardpy.ir.diagnostics import DiagnosticEngine

        if manual.through_gspmd(seed):
            engine = DiagnosticEngine("export")
            with engine.capturing(self.context):
                try:
                    module = ir.Module.parse(text, self.context)
                    if self._exporter.run(module.operation, engine) and not engine.has_errors:
                        return GSPMD_PIPELINE
                except Exception:  # noqa: BLE001 - not expressible: the usual pipeline
                    pass
        if data_flow_edges_seed(seed, self.features):
            return EDGES_PIPELINE
        return COMPACT_PIPELINE if compact_seed(seed) else PIPELINE

    def run_text(self, text: str, seed: int = -1, widened=None) -> Outcome:
        """Partition and run `text`; `widened` (optional) makes the same program in f64
        for the float64 check of float outputs that fail the float32 comparison."""
        start = time.perf_counter()
        try:
            outcome = self._run(text, seed, widened)
        except Exception as err:  # noqa: BLE001 - anything shardpy raises is a finding
            outcome = Outcome(seed, "partition-error",
                              f"internal error: {type(err).__name__}: {err}\n"
                              + traceback.format_exc())
        outcome.seconds = time.perf_counter() - start
        return outcome

    def _run(self, text: str, seed: int, widened) -> Outcome:
        from jaxlib.mlir import ir

        from shardpy.runtime import arrays
        from shardpy.runtime import executor as runtime
        from shardpy.ir.diagnostics import DiagnosticEngine, ShardpyError

        context = self.context
        engine = DiagnosticEngine(f"seed_{seed}.mlir")
        with engine.capturing(context):
            try:
                module = ir.Module.parse(text, context)
            except ir.MLIRError as err:
                return Outcome(seed, "invalid", f"does not parse: {err}")
            op = module.operation
            sig = runtime.signature(op)
            inputs = arrays.random_inputs([v.type for v in sig.args], 0)
            reference = op.clone()
            try:
                if explain_seed(seed):  # the explained module is the one run
                    ok, problem = self._run_explained(module, engine)
                    if problem:
                        return Outcome(seed, "partition-error", problem)
                else:
                    ok = self._pipeline.run(module, engine)
            except Exception as err:  # noqa: BLE001
                return Outcome(seed, "partition-error",
                               f"internal error: {type(err).__name__}: {err}\n"
                               + traceback.format_exc())
            diagnostics = [d.render() for d in engine.diagnostics]
            warnings = [d for d in diagnostics if ": warning: " in d or
                        d.startswith("warning: ")]
            if not ok or engine.has_errors:
                errors = [d for d in diagnostics if d not in warnings]
                return Outcome(seed, "partition-error", "\n".join(errors or diagnostics),
                               warnings=warnings)
            engine.diagnostics.clear()
            try:
                expected = self._reference(reference, inputs)
            except Exception as err:  # noqa: BLE001
                return Outcome(seed, "invalid", f"the reference does not run: "
                                                f"{type(err).__name__}: {err}")
            try:
                result = self.executor.run_per_device(op, sig, inputs)
            except ShardpyError as err:
                return Outcome(seed, "run-error", str(err), warnings=warnings)
            except Exception as err:  # noqa: BLE001
                return Outcome(seed, "run-error", f"internal error: {type(err).__name__}: "
                                                  f"{err}\n" + traceback.format_exc(),
                               warnings=warnings)
        outcome = self._compare(seed, result, expected, inputs, widened, (text, op))
        outcome.warnings = warnings
        return outcome

    def _run_explained(self, module, engine) -> tuple[bool, str]:
        """The pipeline with --explain's recording on (explain_seed), then its records
        read (which removes the tags): every stablehlo collective must get one, and the
        module is then run and compared as any other. (ok, a problem found or "")."""
        from shardpy import explain
        from shardpy.explain.report import explain as read_records
        from shardpy.ir.utils import collect_ops
        from shardpy.sharding.collective_time import COLLECTIVES

        with explain.recording() as recorder:
            ok = self._pipeline.run(module, engine)
        if not ok:
            return ok, ""
        records = read_records(module.operation, recorder)
        found = sum(1 for op in collect_ops(module.operation)
                    if op.name.startswith("stablehlo.") and op.name in COLLECTIVES)
        if len(records) != found:
            return ok, f"--explain: {len(records)} records for {found} collectives"
        if "shardpy.why" in module.operation.get_asm(enable_debug_info=True):
            return ok, "--explain left its tags in the module"
        return ok, ""

    def _reference(self, module, inputs) -> list:
        """Outputs of the unpartitioned `module`: on one device, or where it has
        per-device code (Features.manual) through XLA's partitioner, as shardpy-run's
        reference."""
        from shardpy.passes.strip_shardings import StripShardings, has_per_device_code

        if has_per_device_code(module):
            return self.executor.run_global_by_xla(module, inputs).outputs
        with self.context, module.location:
            StripShardings().run(module)
        return self.executor.run_global(module, inputs).outputs

    def _compare(self, seed: int, result, expected, inputs, widened, program=None
                 ) -> Outcome:
        """The partitioned run's outputs against the one-device run's (float outputs
        that fail: against the f64 program `widened` makes, see float64_check; bf16 and
        f16 ones that fail that too: against XLA's own partitioning of the program,
        `program` = (its text, shardpy's per-device module))."""
        from shardpy.runtime import arrays

        # (bf16 outputs: the type's own tolerances, 8 and 1 units of its precision;
        # f32 and integers: RTOL and ATOL)
        comparisons = [arrays.compare(f"out{i}", a, e, *_tolerances(e))
                       for i, (a, e) in enumerate(zip(result.outputs, expected))]
        failed = [i for i, c in enumerate(comparisons) if not c.ok]
        lines = [comparisons[i].line() for i in failed]
        diverged = [i for i, d in enumerate(result.replica_divergence) if d > ATOL]
        for i in diverged:
            lines.append(f"out{i} replicas: max abs error "
                         f"{result.replica_divergence[i]:.3g} MISMATCH "
                         f"(devices holding the same shard disagree)")
        if not failed and not diverged:
            return Outcome(seed, "pass")
        if widened is None or diverged or not all(
                float64_check.applies(result.outputs[i], expected[i]) for i in failed):
            return Outcome(seed, "mismatch", "\n".join(lines))
        exact, judged = self._judge_in_float64(widened, inputs, failed, result.outputs,
                                               expected)
        detail = [j.line for j in judged]
        if exact is None:  # (one line saying why there is no float64 judgement)
            return Outcome(seed, "mismatch", "\n".join(lines + detail))
        still = [i for i, j in zip(failed, judged) if not j.ok]
        if still and program and all(float64_check.narrow(expected[i]) for i in still):
            ok, more = self._judge_against_xla(program, inputs, still, result.outputs,
                                               exact)
            detail += more
            still = [] if ok else still
        if not still:
            return Outcome(seed, "pass", "\n".join(detail), float64_checked=True)
        return Outcome(seed, "mismatch", "\n".join(lines + detail))

    def _judge_in_float64(self, widened, inputs, failed, partitioned, reference
                          ) -> tuple[list | None, list]:
        """(the float64 program's outputs, or None where it is no reference; a
        float64_check.Judgement per output of `failed`, or one saying why not)."""
        try:
            exact = self._run_float64(widened(), float64_check.widen(inputs))
        except Exception as err:  # noqa: BLE001 - no exact reference: the mismatch stays
            return None, [float64_check.Judgement(
                False, f"float64 check not run: {type(err).__name__}: {str(err)[:300]}")]
        if not float64_check.same_discrete_outputs(reference, exact):
            return None, [float64_check.Judgement(
                False, "float64 check not run: the float64 program's integer outputs "
                       "differ from the reference's (not a faithful reference)")]
        return exact, [float64_check.judge(f"out{i}", partitioned[i], reference[i],
                                           exact[i], *_tolerances(reference[i]))
                       for i in failed]

    def _judge_against_xla(self, program, inputs, failed, partitioned, exact
                           ) -> tuple[bool, list[str]]:
        """bf16/f16 outputs beyond the one-device run's rounding, against XLA's own
        partitioning of the same module (its arguments and results laid out as
        shardpy's): float64_check.judge_against_xla."""
        from jaxlib.mlir import ir

        from shardpy.runtime import executor as runtime

        text, per_device = program
        try:
            module = ir.Module.parse(text, self.context).operation
            devices = runtime.device_count(per_device, runtime.signature(per_device))
            xla = self.executor.run_partitioned_by_xla(module, per_device, inputs,
                                                       devices).outputs
        except Exception as err:  # noqa: BLE001 - no XLA yardstick: the mismatch stays
            return False, [f"XLA check not run: {type(err).__name__}: {str(err)[:300]}"]
        judged = [float64_check.judge_against_xla(f"out{i}", partitioned[i], xla[i],
                                                  exact[i], *_tolerances(xla[i]))
                  for i in failed]
        return all(j.ok for j in judged), [j.line for j in judged]

    def _run_float64(self, text: str, inputs) -> list:
        """Outputs of `text` (the program printed with f64) unpartitioned on one device,
        as the float32 reference is run in _run."""
        from jaxlib.mlir import ir

        module = ir.Module.parse(text, self.context)
        return self._reference(module.operation, inputs)


# --------------------------------------------------------------------------- workers


def _worker_main(conn, disabled: tuple[str, ...]) -> None:
    runner = Runner(generate.Features.from_spec(disabled))
    while True:
        seed = conn.recv()
        if seed is None:
            return
        conn.send(runner.run_seed(seed))


class Pool:
    """Worker processes with a per-program time limit: a hung or dead worker is
    replaced and its program recorded as a timeout or crash."""

    def __init__(self, jobs: int, disabled: tuple[str, ...], timeout: float):
        import multiprocessing as mp

        set_device_flags()  # inherited by the workers' environment
        self.ctx = mp.get_context("spawn")
        self.jobs = jobs
        self.disabled = disabled
        self.timeout = timeout
        self.workers: list[dict] = [self._start() for _ in range(jobs)]

    def _start(self) -> dict:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main, args=(child, self.disabled), daemon=True)
        proc.start()
        child.close()
        return {"proc": proc, "conn": parent, "seed": None, "since": 0.0}

    def _replace(self, worker: dict) -> None:
        proc = worker["proc"]
        if proc.is_alive():
            proc.kill()  # our own worker, by its handle
        proc.join(5)
        worker.update(self._start())

    def map(self, seeds, on_result) -> None:
        from multiprocessing.connection import wait

        pending = list(seeds)[::-1]
        busy = 0
        for w in self.workers:
            if pending:
                self._send(w, pending.pop())
                busy += 1
        while busy:
            conns = [w["conn"] for w in self.workers if w["seed"] is not None]
            ready = wait(conns, timeout=1.0)
            now = time.monotonic()
            for w in self.workers:
                if w["seed"] is None:
                    continue
                seed = w["seed"]
                outcome = None
                if w["conn"] in ready:
                    try:
                        outcome = w["conn"].recv()
                    except (EOFError, OSError):
                        code = w["proc"].exitcode
                        outcome = Outcome(seed, "crash", f"worker died (exit code {code})")
                        self._replace(w)
                elif now - w["since"] > self.timeout:
                    outcome = Outcome(seed, "timeout",
                                      f"no result after {self.timeout:.0f} s (hung?)")
                    self._replace(w)
                if outcome is None:
                    continue
                w["seed"] = None
                busy -= 1
                on_result(outcome)
                if pending:
                    self._send(w, pending.pop())
                    busy += 1

    def _send(self, worker: dict, seed: int) -> None:
        worker["seed"] = seed
        worker["since"] = time.monotonic()
        worker["conn"].send(seed)

    def close(self) -> None:
        for w in self.workers:
            try:
                w["conn"].send(None)
            except OSError:
                pass
        for w in self.workers:
            w["proc"].join(5)
            if w["proc"].is_alive():
                w["proc"].kill()


# --------------------------------------------------------------------------- driver


def bytes_ranked_seed(seed: int, features: generate.Features) -> bool:
    """Whether `seed` is partitioned with plans ranked by bytes (Features.bytes_ranked)."""
    return features.bytes_ranked and seed % 3 == 2


def data_flow_edges_seed(seed: int, features: generate.Features) -> bool:
    """Whether `seed` gets Shardy's data-flow edges first (Features.data_flow_edges)."""
    return features.data_flow_edges and seed % 5 == 4


def explain_seed(seed: int) -> bool:
    """Whether `seed` is partitioned with --explain's recording on (1 in 8, own RNG):
    the module it leaves is the one run and compared."""
    return seed >= 0 and random.Random(f"explain {seed}").random() < 1 / 8



def compact_seed(seed: int) -> bool:
    """Whether `seed`'s per-device code is written compact (COMPACT_PIPELINE):
    1 in 4 (own RNG: the programs themselves do not change)."""
    return random.Random(f"mesh axes {seed}").random() < 1 / 4


def save_failure(outcome: Outcome, directory: Path, features: generate.Features) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"seed_{outcome.seed}.mlir"
    program = generate.generate(outcome.seed, features)
    header = [f"// {outcome.status} (seed {outcome.seed})"]
    header += ["// " + line for line in outcome.detail.splitlines()[:30]]
    env = (f"SHARDPY_COST_PROFILE={BYTES_RANKED_PROFILE} "
           if bytes_ranked_seed(outcome.seed, features) else "")
    edges = (f" --pass-pipeline='{outcome.pipeline}'" if outcome.pipeline != PIPELINE
             else "")
    header.append(f"// reproduce: {env}shardpy-run {path} --check{edges}")
    path.write_text("\n".join(header) + "\n" + program.text)
    return path


def run_batch(seeds, *, jobs: int = 0, disabled: tuple[str, ...] = (), timeout: float = 120.0,
              failures_dir: Path | None = None, verbose: bool = False,
              runner: Runner | None = None, pool: Pool | None = None,
              progress: bool = False) -> list[Outcome]:
    """Run the programs of `seeds` (in `pool`, in `jobs` new workers, or here with
    `runner` when jobs <= 0); returns their outcomes, failures saved if a directory is
    given. A given pool must have been made with the same `disabled`."""
    features = generate.Features.from_spec(disabled)
    outcomes: list[Outcome] = []
    seeds = list(seeds)
    start = time.perf_counter()

    def on_result(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if outcome.failed and failures_dir is not None:
            path = save_failure(outcome, failures_dir, features)
            outcome.detail += f"\nsaved: {path}"
        if verbose or (outcome.failed and progress):
            first = outcome.detail.splitlines()[0] if outcome.detail else ""
            print(f"seed {outcome.seed}: {outcome.status} ({outcome.seconds:.2f} s, "
                  f"{outcome.num_ops} ops) {first[:200]}", flush=True)
        elif progress and len(outcomes) % 100 == 0:
            print(f"... {len(outcomes)}/{len(seeds)} programs, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)

    if pool is not None:
        pool.map(seeds, on_result)
    elif jobs <= 0:
        runner = runner or Runner(features)
        for seed in seeds:
            on_result(runner.run_seed(seed))
    else:
        pool = Pool(jobs, disabled, timeout)
        try:
            pool.map(seeds, on_result)
        finally:
            pool.close()
    outcomes.sort(key=lambda o: o.seed)
    return outcomes


def report(outcomes: list[Outcome], seconds: float) -> str:
    counts = Counter(o.status for o in outcomes)
    checked = sum(o.float64_checked for o in outcomes)
    lines = [f"programs run: {len(outcomes)} in {seconds:.1f} s",
             f"passed: {counts['pass']} ({checked} passed on the float64 check)",
             f"mismatches: {counts['mismatch']}",
             f"partitioner errors: {counts['partition-error']}",
             f"run errors (per-device program refused by XLA/PjRt): {counts['run-error']}",
             f"timeouts: {counts['timeout']}, crashes: {counts['crash']}",
             f"invalid programs (fuzzer bugs): {counts['invalid']}"]
    classes: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if o.status != "pass":
            classes[o.signature()].append(o)
    if classes:
        lines.append(f"failure classes: {len(classes)}")
        for sig, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
            seeds = ", ".join(str(o.seed) for o in members[:8])
            more = f" (+{len(members) - 8})" if len(members) > 8 else ""
            lines.append(f"  [{len(members)}] {sig}\n      seeds: {seeds}{more}")
    failed = [o for o in outcomes if o.status != "pass"]
    if failed:
        lines.append("failures:")
        for o in failed:
            saved = re.search(r"saved: (.*)", o.detail)
            where = saved.group(1) if saved else "(not saved)"
            lines.append(f"  seed {o.seed}: {o.status} -> {where}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=0, help="first program's seed")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="worker processes (0: run in this process)")
    p.add_argument("--long", action="store_true", help="10,000 programs")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per program")
    p.add_argument("--failures", type=Path, default=DEFAULT_FAILURES,
                   help="where failing modules are written")
    p.add_argument("--disable", default="",
                   help="comma-separated generator features or op kinds to leave out "
                        "(e.g. scalar_args,pad); 'known' leaves out known_issues.DISABLED")
    p.add_argument("--enable", default="",
                   help="comma-separated generator features to turn on (e.g. uneven_dims)")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)
    count = 10_000 if args.long else args.count
    disabled = tuple(x for x in args.disable.split(",") if x)
    if "known" in disabled:
        from known_issues import DISABLED

        disabled = tuple(x for x in disabled if x != "known") + DISABLED
    # Features.from_spec: "+name" turns a feature on.
    disabled += tuple("+" + x for x in args.enable.split(",") if x)
    start = time.perf_counter()
    outcomes = run_batch(range(args.seed, args.seed + count), jobs=args.jobs,
                         disabled=disabled, timeout=args.timeout,
                         failures_dir=args.failures, verbose=args.verbose, progress=True)
    print(report(outcomes, time.perf_counter() - start))
    return 1 if any(o.status != "pass" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
