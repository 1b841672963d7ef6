#!/usr/bin/env python3
"""Run one pipeline on one module in this (fresh) process; used by the bench scripts.

    python bench/_worker.py --pipeline sdy-propagation-pipeline IN.mlir [-o OUT.mlirbc]

Parses IN once, then times only `Pipeline(...).run(module, engine)` (which builds the
PassManager and runs it) with `time.perf_counter`. The last line on stdout is a JSON
object: ok, ops (operations in the input, the module op itself not counted),
parse_seconds, pass_seconds, diagnostics (rendered, errors and warnings). With -o the
result is written as MLIR bytecode, locations included (the input's file:line:col, which
is how the comparison names values). Native passes can abort the whole process: the
caller runs this in a subprocess and treats a signal as a crash.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def count_ops(op) -> int:
    from jaxlib.mlir import ir

    count = 0

    def visit(_op):
        nonlocal count
        count += 1
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return count - 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("--pipeline", required=True,
                        help="pipeline text, e.g. sdy-propagation-pipeline or shardpy-propagate")
    parser.add_argument("-o", dest="output", type=Path, help="write the result (bytecode)")
    parser.add_argument("--verify-each", action="store_true",
                        help="verify after every pass inside the timed region (default: "
                             "verify once, after timing)")
    parser.add_argument("--explain", action="store_true",
                        help="run with --explain's recorder and read the records, both "
                             "inside the timed region (bench/explain_cost.py)")
    args = parser.parse_args(argv)

    from shardpy.ir.diagnostics import DiagnosticEngine, ShardpyError
    from shardpy.ir.io import parse_module
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline, PipelineOptions

    report = {"ok": False, "ops": None, "parse_seconds": None, "pass_seconds": None,
              "diagnostics": []}
    context = make_context()
    engine = DiagnosticEngine(str(args.input))
    try:
        pipeline = Pipeline(args.pipeline, context,
                            PipelineOptions(verify_each=args.verify_each))
    except ShardpyError as err:
        report["diagnostics"].append(f"error: {err.message}")
        print(json.dumps(report))
        return 2
    with engine.capturing(context):
        start = time.perf_counter()
        module = parse_module(args.input.read_text(encoding="utf-8"), context, engine)
        report["parse_seconds"] = time.perf_counter() - start
        if module is not None:
            report["ops"] = count_ops(module.operation)
            start = time.perf_counter()
            if args.explain:
                from shardpy.explain import recording
                from shardpy.explain.report import explain

                with recording() as recorder:
                    ok = pipeline.run(module, engine)
                if ok:
                    explain(module.operation, recorder)
            else:
                ok = pipeline.run(module, engine)
            report["pass_seconds"] = time.perf_counter() - start
            if ok and not args.verify_each:
                try:
                    module.operation.verify()
                except Exception as err:  # ir.MLIRError: the result is not valid IR
                    engine.emit("error", None, f"result does not verify: {err}")
                    ok = False
            report["ok"] = ok
            if ok and args.output is not None:
                with open(args.output, "wb") as out:
                    module.operation.write_bytecode(out)
    report["diagnostics"] = [d.render() for d in engine.diagnostics]
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
