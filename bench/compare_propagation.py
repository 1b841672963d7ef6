#!/usr/bin/env python3
"""Compare shardpy-propagate with Shardy's native sdy-propagation-pipeline on the corpus.

    python bench/compare_propagation.py                      # every bench/corpus/*.mlir
    python bench/compare_propagation.py --json out.json      # also save everything as JSON
    python bench/compare_propagation.py scan_layers_fwd_bwd_mesh2x4 --save-outputs /tmp/cmp
    python bench/compare_propagation.py --ours ''            # stand-in "ours": the input as is

Both pipelines run on the same input file, each in a fresh subprocess (bench/_worker.py;
native passes abort the process on some inputs). "ours" is `shardpy-propagate` when it is
registered (`shardpy-opt --list-passes` lists it); until then it is reported as not
available and only the native side runs. `--ours`/`--native` name other pipelines (any
text `shardpy-opt --pass-pipeline` accepts), e.g. to check this script itself.

Which values are compared. Both outputs are flattened into one sequence per entry function
(`@main`), in walk order (pre-order):
  * a function's arguments, then its body's ops, then its results (the `sdy.sharding`s
    on the function signature);
  * a `func.call` is followed into its callee (args, body, results), then the call op's
    own results: values inside a function count once per call site. Shardy flattens the
    call graph and may clone or rename callees (`@softmax_block_0` -> `@softmax_block_0_1`),
    so functions are never matched by name; private functions no call reaches come last;
  * ops inside `stablehlo.while/case/if` and `sdy.manual_computation/named_computation`
    bodies are walked; the scalar bodies of reduce, reduce_window, sort, scatter,
    select_and_scatter, all_reduce, ... are not (they carry no shardings);
  * a value is a tensor-typed func argument, func result or op result.

Matching. Each item (an op, or a function's argument list / result list) has a signature:
its op name, result types, nesting depth and the op's input location (line:col: both
sides parse the same file, so an op keeps the same location through both pipelines;
locations are left out of the signature if either side kept them on fewer than half of
its ops). The two sequences are aligned with difflib's SequenceMatcher (longest matching
blocks, no junk heuristic); items are paired inside equal blocks only, so when both sides
have the same ops this is exactly positional matching with names and types checked.
Before comparing names, `sdy.constant` counts as `stablehlo.constant` and `sdy.reshard`
as `sdy.sharding_constraint` (the native import rewrites constants, its export turns
constraints into reshards). Items on one side only (constants the native export merges,
reshards it inserts) are listed as unmatched and do not count as values. The op index
printed with a disagreement is the item's position in the native side's flattened walk.

Comparison rule for one value (what "agrees" means):
  * the sharding of an op result is the op's `sdy.sharding` (per value); for
    `sdy.sharding_constraint`/`sdy.reshard` their `sharding`, for
    `sdy.manual_computation` its `out_shardings`; a func argument/result: the
    `sdy.sharding` in its arg/res attributes;
  * a missing sharding means fully replicated;
  * two shardings agree when both are fully replicated (every dimension empty, no
    unreduced axes; mesh not looked at), or when they refer to the same mesh (axes and
    device order, not the symbol name), shard every dimension on exactly the same axes
    in the same order (sub-axes compared as written), and have the same unreduced axes;
  * ignored: open (`?`) vs closed dimensions, priorities (`p0`), and the explicit
    `replicated={...}` axes (they constrain later propagation, not the layout).
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from shardpy.ir.diagnostics import ShardpyError
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.pipeline import Pipeline
from shardpy.sharding.sdy_codec import ShardingCodec

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
WORKER = BENCH_DIR / "_worker.py"
CORPUS_DIR = BENCH_DIR / "corpus"
NATIVE = "sdy-propagation-pipeline"
OURS = "shardpy-propagate"

# Ops whose regions hold program values (walked); every other region is a scalar body.
DESCEND = {"stablehlo.while", "stablehlo.case", "stablehlo.if",
           "sdy.manual_computation", "sdy.named_computation"}
SAME_NAME = {"sdy.constant": "stablehlo.constant", "sdy.reshard": "sdy.sharding_constraint"}
LOCATED_ENOUGH = 0.5  # align on input locations when both sides keep them on half the ops
OWN_SHARDING = {"sdy.sharding_constraint": "sharding", "sdy.reshard": "sharding"}


# --------------------------------------------------------------------------- running
@dataclass
class Run:
    pipeline: str
    status: str                   # ok | failed | crashed | timeout | not available
    message: str = ""
    seconds: float | None = None  # the pass only (perf_counter in the worker)
    output: Path | None = None


def pipeline_available(text: str) -> tuple[bool, str]:
    """Whether `text` builds a pipeline here (shardpy passes registered, native known)."""
    try:
        Pipeline(text, make_context())
    except ShardpyError as err:
        if "does not refer to a registered pass" in err.message:
            return False, "not registered; shardpy-opt --list-passes does not list it"
        return False, err.message
    except Exception as err:  # a broken pass package must not stop the comparison
        return False, f"{type(err).__name__}: {err}"
    return True, ""


def run_pipeline(text: str, module: Path, output: Path, timeout: float) -> Run:
    command = [sys.executable, str(WORKER), "--verify-each", "--pipeline", text, str(module),
               "-o", str(output)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              cwd=REPO)
    except subprocess.TimeoutExpired:
        return Run(text, "timeout", f"no result after {timeout:.0f} s")
    report = None
    lines = proc.stdout.strip().splitlines()
    if lines:
        try:
            report = json.loads(lines[-1])
        except json.JSONDecodeError:
            report = None
    if proc.returncode < 0:
        return Run(text, "crashed", f"{signal_name(-proc.returncode)}: "
                                    f"{crash_message(proc.stderr)}")
    if report is None:
        return Run(text, "crashed", f"exit {proc.returncode}: {crash_message(proc.stderr)}")
    errors = [d for d in report["diagnostics"] if ": error: " in d or d.startswith("error:")]
    if not report["ok"]:
        return Run(text, "failed", first_line(errors[0] if errors else
                                              (report["diagnostics"] or ["failed"])[0]),
                   report["pass_seconds"])
    return Run(text, "ok", "", report["pass_seconds"], output)


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def crash_message(stderr: str) -> str:
    """The line of a native crash that says what went wrong (LLVM ERROR / Check failed)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "Check failed" in line or "LLVM ERROR" in line or "error:" in line:
            return line[:400]
    return lines[-1][:400] if lines else "(no message)"


def first_line(text: str) -> str:
    return text.strip().splitlines()[0][:400] if text.strip() else ""


# --------------------------------------------------------------------------- flattening
@dataclass
class Value:
    kind: str                 # arg | result | op
    place: str                # call path, e.g. "@main/@softmax_block(call at 12:10)"
    op_name: str              # op name, or func.func for args/results
    index: int                # result / argument number
    type: str
    loc: str                  # input file line:col ("" when unknown)
    sharding: ir.Attribute | None

    def describe(self, file_name: str = "") -> str:
        if self.kind == "arg":
            what = f"argument {self.index}"
        elif self.kind == "result":
            what = f"result {self.index}"
        else:
            what = f"{self.op_name} result {self.index}"
        where = f"{file_name}:{self.loc}" if file_name else self.loc
        return f"{self.place}: {what}" + (f" at {where}" if self.loc else "")


@dataclass
class Item:
    signature: tuple          # (kind, op name, nesting depth, result types)
    label: str                # for unmatched items
    values: list[Value] = field(default_factory=list)
    loc: str = ""             # input line:col of an op ("" for args/results, unknown locs)


def loc_text(loc: ir.Location) -> str:
    """line:col of the first file location inside `loc`."""
    typeid = loc.typeid
    if typeid == ir.FileLineColLoc.static_typeid:
        file_loc = ir.FileLineColLoc(loc)
        return f"{file_loc.start_line}:{file_loc.start_col}"
    if typeid == ir.NameLoc.static_typeid:
        return loc_text(ir.NameLoc(loc).child_loc)
    if typeid == ir.CallSiteLoc.static_typeid:
        return loc_text(ir.CallSiteLoc(loc).callee)
    if typeid == ir.FusedLoc.static_typeid:
        for inner in ir.FusedLoc(loc).locations:
            found = loc_text(inner)
            if found:
                return found
    return ""


def sym_name(op) -> str:
    return ir.StringAttr(op.attributes["sym_name"]).value


def is_public(func_op) -> bool:
    if "sym_visibility" not in func_op.attributes:
        return True
    return ir.StringAttr(func_op.attributes["sym_visibility"]).value == "public"


def signature_shardings(func_op, key: str, count: int) -> list[ir.Attribute | None]:
    out: list[ir.Attribute | None] = [None] * count
    if key in func_op.attributes:
        for i, attrs in enumerate(ir.ArrayAttr(func_op.attributes[key])):
            attrs = ir.DictAttr(attrs)
            if "sdy.sharding" in attrs:
                out[i] = attrs["sdy.sharding"]
    return out


def result_shardings(op) -> list[ir.Attribute | None]:
    name = op.name
    count = len(op.results)
    if "sdy.sharding" in op.attributes:
        attr = op.attributes["sdy.sharding"]
        if sdy.TensorShardingPerValueAttr.isinstance(attr):
            return list(sdy.TensorShardingPerValueAttr(attr).shardings)
        return [attr] * count
    if name in OWN_SHARDING and OWN_SHARDING[name] in op.attributes:
        return [op.attributes[OWN_SHARDING[name]]] * count
    if name == "sdy.manual_computation":
        return list(sdy.TensorShardingPerValueAttr(op.attributes["out_shardings"]).shardings)
    return [None] * count


def is_tensor(value_type: ir.Type) -> bool:
    return isinstance(value_type, ir.RankedTensorType)


class Flattener:
    def __init__(self, module: ir.Module):
        self.funcs = {sym_name(op): op for op in module.body.operations
                      if op.operation.name == "func.func"}
        self.items: list[Item] = []
        self.reached: set[str] = set()

    def run(self) -> list[Item]:
        for name, func_op in self.funcs.items():
            if is_public(func_op):
                self.expand(name, f"@{name}", 0, ())
        for name in self.funcs:
            if name not in self.reached:
                self.expand(name, f"@{name}", 0, ())
        return self.items

    def expand(self, name: str, place: str, depth: int, stack: tuple[str, ...]) -> None:
        self.reached.add(name)
        func_op = self.funcs[name]
        block = func_op.regions[0].blocks[0]
        args = list(block.arguments)
        arg_shardings = signature_shardings(func_op, "arg_attrs", len(args))
        self.items.append(Item(
            ("args", depth, tuple(str(a.type) for a in args)), f"{place}: arguments",
            [Value("arg", place, "func.func", i, str(a.type), "", arg_shardings[i])
             for i, a in enumerate(args) if is_tensor(a.type)]))
        self.walk_block(block, place, depth, stack + (name,))
        ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
        results = list(ftype.results)
        res_shardings = signature_shardings(func_op, "res_attrs", len(results))
        self.items.append(Item(
            ("results", depth, tuple(map(str, results))), f"{place}: results",
            [Value("result", place, "func.func", i, str(t), "", res_shardings[i])
             for i, t in enumerate(results) if is_tensor(t)]))

    def walk_block(self, block, place: str, depth: int, stack: tuple[str, ...]) -> None:
        for op in block.operations:
            op = op.operation
            name = op.name
            loc = loc_text(op.location)
            if name == "func.call":
                callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                if callee in self.funcs and callee not in stack:
                    self.expand(callee, f"{place}/@{callee}(call at {loc or '?'})",
                                depth + 1, stack)
            if len(op.results):
                shardings = result_shardings(op)
                values = [Value("op", place, name, i, str(r.type), loc, shardings[i])
                          for i, r in enumerate(op.results) if is_tensor(r.type)]
                signature = ("op", SAME_NAME.get(name, name), depth,
                             tuple(str(r.type) for r in op.results))
                self.items.append(Item(signature, f"{place}: {name}"
                                       + (f" at {loc}" if loc else ""), values, loc))
            if name in DESCEND:
                for region in op.regions:
                    for inner in region.blocks:
                        self.walk_block(inner, place, depth + 1, stack)


# --------------------------------------------------------------------------- comparing
class Canonicalizer:
    """Sharding attribute -> comparison key (see the module docstring for the rule)."""

    def __init__(self, module: ir.Module):
        self.codec = ShardingCodec.for_module(module.operation)

    def key(self, attr: ir.Attribute | None):
        if attr is None:
            return "replicated"
        sharding = self.codec.decode(attr)
        dims = tuple(tuple(d.axes) for d in sharding.dims)
        unreduced = frozenset(sharding.unreduced)
        if not any(dims) and not unreduced and not sharding.mesh.is_maximal:
            return "replicated"
        return (sharding.mesh.axes, sharding.mesh.devices, dims, unreduced)


def show(attr: ir.Attribute | None) -> str:
    if attr is None:
        return "(none)"
    text = str(attr)
    return text[len("#sdy.sharding"):] if text.startswith("#sdy.sharding<") else text


@dataclass
class Comparison:
    values: int = 0
    agree: int = 0
    disagreements: list[dict] = field(default_factory=list)
    only_ours: list[str] = field(default_factory=list)
    only_native: list[str] = field(default_factory=list)
    aligned_on_locations: bool = True


def located(items: list[Item]) -> float:
    ops = [i for i in items if i.signature[0] == "op"]
    return sum(bool(i.loc) for i in ops) / len(ops) if ops else 1.0


def compare(ours: ir.Module, native: ir.Module, file_name: str) -> Comparison:
    ours_items, native_items = Flattener(ours).run(), Flattener(native).run()
    ours_key, native_key = Canonicalizer(ours).key, Canonicalizer(native).key
    # Both sides parsed the same file, so an op that survives both pipelines has the
    # same input line:col on both: use it as part of the signature (it anchors the
    # alignment where the call graph repeats the same ops), unless a side lost its
    # locations (then the alignment is on names, types and depth alone).
    use_loc = min(located(ours_items), located(native_items)) >= LOCATED_ENOUGH
    signature = (lambda i: i.signature + (i.loc,)) if use_loc else (lambda i: i.signature)
    matcher = difflib.SequenceMatcher(None, [signature(i) for i in ours_items],
                                      [signature(i) for i in native_items], autojunk=False)
    result = Comparison(aligned_on_locations=use_loc)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag != "equal":
            result.only_ours += [i.label for i in ours_items[a0:a1]]
            result.only_native += [i.label for i in native_items[b0:b1]]
            continue
        for offset, (a, b) in enumerate(zip(ours_items[a0:a1], native_items[b0:b1])):
            for ov, nv in zip(a.values, b.values):
                result.values += 1
                if ours_key(ov.sharding) == native_key(nv.sharding):
                    result.agree += 1
                    continue
                result.disagreements.append({
                    "value": nv.describe(file_name), "op": nv.op_name, "type": nv.type,
                    "op_index": b0 + offset,
                    "ours": show(ov.sharding), "native": show(nv.sharding)})
    return result


# --------------------------------------------------------------------------- main
def native_summary(module: ir.Module) -> tuple[int, int]:
    """(values, values with a non-replicated sharding) in a native result."""
    key = Canonicalizer(module).key
    values = [v for item in Flattener(module).run() for v in item.values]
    return len(values), sum(key(v.sharding) != "replicated" for v in values)


def corpus_modules(names: list[str], corpus: Path) -> list[Path]:
    paths = sorted(corpus.glob("*.mlir"))
    if names:
        wanted = [p for p in paths if p.stem in names or p.name in names]
        missing = set(names) - {p.stem for p in wanted} - {p.name for p in wanted}
        if missing:
            raise SystemExit(f"not in {corpus}: {', '.join(sorted(missing))}")
        paths = wanted
    if not paths:
        raise SystemExit(f"no modules in {corpus} (run `python bench/corpus.py`)")
    return paths


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="The comparison rule is described in this script's docstring and in "
               "bench/README.md.")
    parser.add_argument("modules", nargs="*", help="corpus module names (default: all)")
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR)
    parser.add_argument("--ours", default=OURS, help=f"our pipeline (default: {OURS})")
    parser.add_argument("--native", default=NATIVE, help=f"reference (default: {NATIVE})")
    parser.add_argument("--json", type=Path, help="write the full report here")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per pass run")
    parser.add_argument("--jobs", "-j", type=int, default=min(8, os.cpu_count() or 1),
                        help="pass runs in parallel (default: min(8, CPUs))")
    parser.add_argument("--native-only", action="store_true", help="do not run ours")
    parser.add_argument("--save-outputs", type=Path,
                        help="write each side's result as DIR/<module>.{ours,native}.mlir")
    parser.add_argument("--max-listed", type=int, default=None,
                        help="list at most N disagreements per module (default: all)")
    parser.add_argument("--list-unmatched", action="store_true",
                        help="list every op found on one side only (default: counts per "
                             "op name; the JSON report always has the full list)")
    args = parser.parse_args(argv)

    paths = corpus_modules(args.modules, args.corpus)
    ours_ok, ours_why = pipeline_available(args.ours)
    native_ok, native_why = pipeline_available(args.native)
    print(f"native: {args.native}" + ("" if native_ok else f" (not available: {native_why})"))
    print(f"ours:   {args.ours or '(empty pipeline: the input as is)'}"
          + ("" if ours_ok else f" (not available: {first_line(ours_why)})")
          + (" (not run: --native-only)" if args.native_only and ours_ok else ""))
    print()

    context = make_context()
    reports, started = [], time.perf_counter()
    if args.save_outputs:
        args.save_outputs.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shardpy-cmp-") as tmp:
        sides = (("native", args.native, native_ok, native_why),
                 ("ours", args.ours, ours_ok and not args.native_only,
                  "--native-only" if args.native_only else ours_why))
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {
                (path, side): pool.submit(run_pipeline, text, path,
                                          Path(tmp) / f"{path.stem}.{side}.mlirbc", args.timeout)
                for path in paths for side, text, available, _ in sides if available}
        for path in paths:
            runs = {side: futures[path, side].result() if available
                    else Run(text, "not available", first_line(why))
                    for side, text, available, why in sides}
            modules = {}
            with context:
                for side, run in runs.items():
                    if run.status == "ok":
                        modules[side] = ir.Module.parse(run.output.read_bytes())
                        if args.save_outputs:
                            (args.save_outputs / f"{path.stem}.{side}.mlir").write_text(
                                modules[side].operation.get_asm(), encoding="utf-8")
                report = {"module": path.stem, "ops": count_ops(path, context),
                          **{side: dataclasses.asdict(run, dict_factory=_json_dict)
                             for side, run in runs.items()}}
                if "native" in modules:
                    report["native_values"], report["native_sharded_values"] = \
                        native_summary(modules["native"])
                if len(modules) == 2:
                    cmp = compare(modules["ours"], modules["native"],
                                  str(path.relative_to(REPO)) if path.is_relative_to(REPO)
                                  else str(path))
                    report.update(values=cmp.values, agree=cmp.agree,
                                  percent=100.0 * cmp.agree / cmp.values if cmp.values else None,
                                  disagreements=cmp.disagreements,
                                  only_ours=cmp.only_ours, only_native=cmp.only_native,
                                  aligned_on_locations=cmp.aligned_on_locations)
            reports.append(report)
    elapsed = time.perf_counter() - started

    print_table(reports)
    print_details(reports, args.max_listed, args.list_unmatched)
    total_values = sum(r.get("values", 0) for r in reports)
    total_agree = sum(r.get("agree", 0) for r in reports)
    compared = [r for r in reports if "values" in r]
    if compared and total_values:
        overall = 100.0 * total_agree / total_values
        print(f"\ncorpus: {total_agree}/{total_values} values agree ({overall:.1f}%) over "
              f"{len(compared)}/{len(reports)} modules compared")
    else:
        overall = None
        ran = {side: sum(r[side]["status"] == "ok" for r in reports) for side in ("native", "ours")}
        print(f"\ncorpus: nothing compared; native ran on {ran['native']}/{len(reports)} "
              f"modules, ours on {ran['ours']}/{len(reports)}"
              + (f" (ours: {reports[0]['ours']['status']})" if not ran["ours"] else ""))
    print(f"({elapsed:.1f} s)")
    if args.json:
        summary = {"native_pipeline": args.native, "ours_pipeline": args.ours,
                   "values": total_values, "agree": total_agree, "percent": overall,
                   "modules": reports}
        args.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


def _json_dict(items):
    return {k: (str(v) if isinstance(v, Path) else v) for k, v in items if k != "output"}


def count_ops(path: Path, context: ir.Context) -> int | None:
    try:
        with context:
            module = ir.Module.parse(path.read_text(encoding="utf-8"))
    except ir.MLIRError:
        return None  # the runs report the parse error
    count = 0

    def visit(_op):
        nonlocal count
        count += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return count - 1


def status_cell(run: dict) -> str:
    if run["status"] == "ok":
        return f"ok {run['seconds'] * 1e3:.0f}ms"
    return run["status"]


def print_table(reports: list[dict]) -> None:
    header = ["module", "ops", "native", "ours", "values", "native sharded", "agree", "%",
              "only ours", "only native"]
    rows = []
    for r in reports:
        compared = "values" in r
        rows.append([
            r["module"], str(r["ops"]) if r["ops"] is not None else "-", status_cell(r["native"]), status_cell(r["ours"]),
            str(r["values"]) if compared else str(r.get("native_values", "-")),
            str(r.get("native_sharded_values", "-")),
            str(r["agree"]) if compared else "-",
            f"{r['percent']:.1f}" if compared and r["percent"] is not None else "-",
            str(len(r["only_ours"])) if compared else "-",
            str(len(r["only_native"])) if compared else "-"])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))
    print("(values: compared values; with nothing to compare, the native result's values. "
          "native sharded: values the native result shards on some axis, in its whole walk)")


def print_details(reports: list[dict], max_listed: int | None, list_unmatched: bool) -> None:
    for r in reports:
        problems = [f"{side}: {r[side]['status']}: {r[side]['message']}"
                    for side in ("native", "ours")
                    if r[side]["status"] not in ("ok", "not available")]
        disagreements = r.get("disagreements", [])
        unmatched = r.get("only_ours", []) + r.get("only_native", [])
        if not (problems or disagreements or unmatched):
            continue
        print(f"\n{r['module']}:")
        for problem in problems:
            print(f"  {problem}")
        listed = disagreements if max_listed is None else disagreements[:max_listed]
        for d in listed:
            print(f"  [{d['op_index']}] {d['value']}  {d['type']}\n"
                  f"      ours   {d['ours']}\n      native {d['native']}")
        if len(listed) < len(disagreements):
            print(f"  ... {len(disagreements) - len(listed)} more disagreements")
        for side in ("ours", "native"):
            labels = r.get(f"only_{side}", [])
            if not labels:
                continue
            if list_unmatched:
                for label in labels:
                    print(f"  only in {side}: {label}")
            else:
                counts = Counter(unmatched_kind(label) for label in labels)
                print(f"  only in {side} (not compared): "
                      + ", ".join(f"{n} {kind}" for kind, n in counts.most_common()))


def unmatched_kind(label: str) -> str:
    """`@main/@f(call at 3:4): stablehlo.constant at 9:12` -> `stablehlo.constant`."""
    what = label.rsplit(": ", 1)[-1]
    return what.split(" at ", 1)[0]


if __name__ == "__main__":
    sys.exit(main())
