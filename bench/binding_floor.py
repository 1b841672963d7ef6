#!/usr/bin/env python3
"""The least a pass written in Python on jaxlib's MLIR bindings spends on a module.

    python bench/binding_floor.py                          # scale_1k/10k/50k, 3 runs each
    python bench/binding_floor.py --sizes 50k --repeat 5 --json floor.json
    python bench/binding_floor.py --modules a.mlir b.mlir  # any modules (no native side)

A partitioner of Python passes must at least read every op and give the per-device
module its local types. This script does that and nothing else, through the same
bindings shardpy's passes use, in two ways:

  read     every op, nested ones included: name, operands, result types (the graph)
  retype   every block argument's and op result's type set in place (to itself)
  walk     as read, and every attribute of every op
  rebuild  a new module built op by op: each op created anew (same name, attributes,
           result types, operands mapped to the new values, its regions rebuilt block
           by block), what a pass that recreates every op must do at least

least = read + retype: a pipeline that reads the graph once and changes types in
place, with no other work at all; full = walk + rebuild. Each is timed in a fresh
process after parsing (parse and printing excluded, as in bench/partition.py); the
rebuilt module is verified afterwards, untimed, and must print as the input does. For
the scale modules the same run times native Shardy's partition pipeline with chlo
legalization (bench/partition.py's `native+chlo` side, also fresh processes,
alternating) and shardpy's, so both floors are ratios against it: what is left between
`least` and a pipeline's time is its algorithms, done in Python.

Example of what `rebuild` does to one op (before: the parsed module; after: the new
module, printed the same):

    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
    ->  ir.Operation.create("stablehlo.add", results=[tensor<8x16xf32>],
                            operands=[<new %arg0>, <new %arg1>], attributes={})
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


def _walk(op, seen: list, attributes: bool = True) -> None:
    """Read what any pass reads of every op below `op`: its name, operands and result
    types (the graph), and with `attributes` every attribute too."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                seen.append((child.name, list(child.operands),
                             [r.type for r in child.results],
                             dict(child.attributes.items()) if attributes else None))
                _walk(child, seen, attributes)


def _retype(op) -> None:
    """Every value's type set in place: what giving values their local types costs."""
    for region in op.regions:
        for block in region.blocks:
            for argument in block.arguments:
                argument.set_type(argument.type)
            for child in block.operations:
                child = child.operation
                for result in child.results:
                    result.set_type(result.type)
                _retype(child)


def _rebuild_block(block, new_block, mapping: dict) -> None:
    from jaxlib.mlir import ir

    for arg, new_arg in zip(block.arguments, new_block.arguments):
        mapping[arg] = new_arg
    with ir.InsertionPoint(new_block):
        for child in block.operations:
            child = child.operation
            new = ir.Operation.create(
                child.name, results=[r.type for r in child.results],
                operands=[mapping[v] for v in child.operands],
                attributes=dict(child.attributes.items()),
                regions=len(child.regions), loc=child.location)
            for region, new_region in zip(child.regions, new.regions):
                for inner in region.blocks:
                    new_inner = new_region.blocks.append(*[a.type for a in inner.arguments])
                    _rebuild_block(inner, new_inner, mapping)
            for result, new_result in zip(child.results, new.results):
                mapping[result] = new_result


def rebuild(module):
    """A new module holding a copy of `module` built op by op."""
    from jaxlib.mlir import ir

    new = ir.Module.create(loc=module.operation.location)
    body = module.operation.regions[0].blocks[0]
    new_body = new.operation.regions[0].blocks[0]
    mapping: dict = {}
    for name, attr in module.operation.attributes.items():
        new.operation.attributes[name] = attr
    # The module's own block has no arguments: its ops go straight into the new one.
    _rebuild_block(body, new_body, mapping)
    return new


def worker(module_path: Path) -> int:
    """Parse, then time walk and rebuild; one JSON line."""
    from _worker import count_ops

    from shardpy.ir.jaxlib_bridge import make_context
    from jaxlib.mlir import ir

    context = make_context()
    with context, ir.Location.unknown():
        module = ir.Module.parse(module_path.read_text(encoding="utf-8"))
        ops = count_ops(module.operation)
        text = str(module)
        times = {}
        seen: list = []
        # Each pair on a freshly parsed module: the first touch of an op makes its Python
        # object, which a pipeline pays once, so `least` and `full` each start cold.
        for name, step in (("read", lambda: _walk(module.operation, [], attributes=False)),
                           ("retype", lambda: _retype(module.operation)),
                           ("walk", lambda: _walk(module.operation, seen)),
                           ("rebuild", lambda: rebuild(module))):
            if name in ("read", "walk"):
                module = ir.Module.parse(text)
            start = time.perf_counter()
            made = step()
            times[name] = time.perf_counter() - start
            if name == "rebuild":
                copy = made
        copy.operation.verify()
        same = str(copy) == str(module)
    print(json.dumps({"ops": ops, "walked": len(seen), **times, "same": same}), flush=True)
    return 0 if same and len(seen) == ops else 1


def floor_once(module: Path, timeout: float) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(module)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          cwd=BENCH_DIR.parent)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"floor worker failed on {module}: {proc.stderr[-2000:]}")
    return json.loads(lines[-1])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker(Path(argv[1]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1k", "10k", "50k"])
    parser.add_argument("--modules", nargs="+", type=Path, default=[],
                        help="time these modules' floor instead (no native side)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    if args.modules:
        targets = [(path.stem, path, False) for path in args.modules]
    else:
        import scale

        made = scale.ensure(args.sizes)
        targets = [(f"scale_{size}", Path(made[size]["path"]), True) for size in args.sizes]
    from partition import SIDES, run_once

    rows = []
    for name, path, native in targets:
        floors, natives, ours = [], [], []
        for _ in range(args.repeat):
            floors.append(floor_once(path, args.timeout))
            if native:
                for side, out in (("native+chlo", natives), ("ours", ours)):
                    run = run_once(side, path, args.timeout)
                    if run["status"] == "ok":
                        # pass time without chlo legalization (not in partition.py's totals)
                        out.append(sum(t for step, t in run["steps"].items()
                                       if step != SIDES["native+chlo"][0]))
        row = {"module": name, "ops": floors[0]["ops"]}
        for key in ("read", "retype", "walk", "rebuild"):
            row[f"{key}_ms"] = statistics.median(f[key] for f in floors) * 1e3
        row["least_ms"] = statistics.median(f["read"] + f["retype"] for f in floors) * 1e3
        row["full_ms"] = statistics.median(f["walk"] + f["rebuild"] for f in floors) * 1e3
        for key, out in (("native_ms", natives), ("ours_ms", ours)):
            if out:
                row[key] = statistics.median(out) * 1e3
        if natives:
            for key in ("least", "full", "ours"):
                if f"{key}_ms" in row:
                    row[f"{key}_over_native"] = row[f"{key}_ms"] / row["native_ms"]
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)

    print("| module | ops | read ms | retype ms | least ms | walk ms | rebuild ms | full ms | "
          "native+chlo ms | least / native | full / native | shardpy ms | shardpy / native |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        def cell(key, fmt="{:.1f}"):
            return fmt.format(r[key]) if key in r else "–"
        print(f"| {r['module']} | {r['ops']} | " + " | ".join(
            [cell("read_ms"), cell("retype_ms"), cell("least_ms"), cell("walk_ms"),
             cell("rebuild_ms"), cell("full_ms"), cell("native_ms"),
             cell("least_over_native", "{:.2f}×"), cell("full_over_native", "{:.2f}×"),
             cell("ours_ms"), cell("ours_over_native", "{:.2f}×")]) + " |")
    print(f"\nmedian of {args.repeat} fresh processes per side; pass time only (parse, "
          "printing and chlo legalization excluded)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
