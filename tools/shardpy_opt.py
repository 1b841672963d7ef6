"""shardpy-opt: mlir-opt for shardpy. Parse, run a pipeline, print.

    shardpy-opt in.mlir --shardpy-strip-shardings -o out.mlir
    shardpy-opt in.mlir --pass-pipeline='builtin.module(canonicalize,sdy-close-shardings)'
    shardpy-opt tests.mlir --split-input-file --verify-diagnostics --some-pass

Any flag that is not one of the options below names a pass: shardpy's own (listed by
--list-passes) or any native pass jaxlib registers (`--canonicalize`, `--sdy-close-shardings`,
`--inline`, ...). Pass options go after '=': `--shardpy-import=key=value` or in braces
inside --pass-pipeline.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shardpy.ir import io as irio
from shardpy.cli import run_tool
from shardpy.ir.diagnostics import DiagnosticEngine, ShardpyError
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.pipeline import (PIPELINES, Pipeline, PipelineElement, PipelineOptions,
                              parse_pipeline, registered_passes)
from shardpy.ir.verify_diagnostics import collect_expected, verify
from shardpy.explain import report as explain_report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shardpy-opt", description=__doc__, epilog=_passes_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", nargs="?", default="-",
                        help="input file: MLIR text or bytecode, or HLO text (.hlo or an "
                             "HloModule header); '-' for stdin")
    parser.add_argument("-o", dest="output", default="-", help="output file ('-' for stdout)")
    parser.add_argument("--pass-pipeline", help="textual pass pipeline, e.g. "
                        "'builtin.module(canonicalize,shardpy-strip-shardings)'")
    parser.add_argument("--split-input-file", action="store_true",
                        help="process each '// -----' chunk as its own module")
    parser.add_argument("--verify-diagnostics", action="store_true",
                        help="check diagnostics against expected-error/warning comments")
    parser.add_argument("--emit-bytecode", action="store_true", help="write MLIR bytecode")
    parser.add_argument("--no-verify-each", action="store_true",
                        help="do not verify the module after every pass")
    parser.add_argument("--timing", "--mlir-timing", dest="timing", action="store_true",
                        help="print a pass timing report (like -mlir-timing)")
    parser.add_argument("--mlir-print-ir-after-all", action="store_true",
                        help="print the module after every pass (to stderr)")
    parser.add_argument("--mlir-print-debuginfo", action="store_true",
                        help="print locations in the output")
    parser.add_argument("--dump-dir", type=Path,
                        help="write the module after each pipeline step to DIR/NN_<pass>.mlir")
    parser.add_argument("--allow-unregistered-dialect", action="store_true")
    parser.add_argument("--list-passes", action="store_true",
                        help="list shardpy's passes with their options and exit")
    explain_report.add_arguments(parser)  # (printed to stderr: stdout has the module)
    return parser


def split_pass_flags(argv: list[str], parser: argparse.ArgumentParser
                     ) -> tuple[list[str], list[PipelineElement]]:
    """Separate tool options from pass flags (`--name[=options]`), keeping pass order.

    Every flag that is not a tool option names a pass: shardpy's own or any native
    pass jaxlib registers; unknown names are reported by the pipeline builder.
    """
    tool_flags = {flag for action in parser._actions for flag in action.option_strings}
    rest, passes = [], []
    for arg in argv:
        flag, eq, opts = arg.partition("=")
        if flag[:1] == "-" and flag[:2] != "--" and "-" + flag in tool_flags:
            arg, flag = "-" + arg, "-" + flag  # mlir-opt style: -split-input-file
        if arg.startswith("-") and arg != "-" and flag not in tool_flags:
            passes.append(PipelineElement(flag.lstrip("-"), opts.strip("'\"") if eq else None))
        else:
            rest.append(arg)
    return rest, passes


def _passes_epilog() -> str:
    lines = ["shardpy passes (also usable as --NAME[=OPTIONS] flags, in order):"]
    for name, info in sorted(registered_passes().items()):
        lines.append(f"  --{name:32} {info.summary}")
        if info.options:
            lines.append(f"  {'':34} options: {info.option_help()}")
    lines.append("shardpy pipelines:")
    for name, (text, summary) in sorted(PIPELINES.items()):
        lines.append(f"  --{name:32} {summary}: {text}")
    return "\n".join(lines)


def main_body(argv: list[str]) -> int:
    parser = build_parser()
    rest, flagged = split_pass_flags(argv, parser)
    args = parser.parse_args(rest)
    if args.list_passes:
        print(_passes_epilog())
        return 0
    if args.pass_pipeline is not None and flagged:
        raise ShardpyError("use either --pass-pipeline or pass flags, not both")
    elements = parse_pipeline(args.pass_pipeline) if args.pass_pipeline is not None else flagged

    context = make_context()
    context.allow_unregistered_dialects = args.allow_unregistered_dialect
    options = PipelineOptions(
        verify_each=not args.no_verify_each, timing=args.timing,
        print_ir_after_all=args.mlir_print_ir_after_all, dump_dir=args.dump_dir)
    name = irio.display_name(args.input)
    try:
        data = irio.read_input(args.input)
    except OSError as err:
        raise ShardpyError(f"cannot open input file '{args.input}': {err.strerror}") from None

    pipeline = Pipeline(elements, context, options)  # bad pipelines fail before parsing
    if irio.is_bytecode(data):
        if args.split_input_file or args.verify_diagnostics:
            raise ShardpyError("--split-input-file and --verify-diagnostics need text input")
        chunks = [irio.Chunk(data, 0)]  # type: ignore[arg-type]
    else:
        text = data.decode("utf-8", errors="replace")
        chunks = irio.split_chunks(text) if args.split_input_file else [irio.Chunk(text, 0)]
    if len(chunks) > 1 and (args.explain_json or args.explain_html):
        # (each chunk's would overwrite the last's: --explain prints every chunk's)
        raise ShardpyError(f"--explain-json and --explain-html explain one program; this "
                           f"--split-input-file input has {len(chunks)}")

    outputs: list[str | bytes] = []
    failed = False
    for chunk in chunks:
        engine = DiagnosticEngine(name)
        with engine.capturing(context), \
                explain_report.explaining(explain_report.wanted(args), name) as recorder:
            module = irio.parse_module(chunk.text, context, engine, chunk.first_line,
                                       hlo=irio.is_hlo_path(args.input))
            ok = module is not None and pipeline.run(module, engine)
            if ok and recorder is not None:
                explain_report.emit(explain_report.explain(module.operation, recorder),
                                    recorder, args, sys.stderr)
        if args.verify_diagnostics:
            problems = verify(engine.diagnostics, collect_expected(chunk.text, chunk.first_line),
                              name)
            for problem in problems:
                print(problem, file=sys.stderr)
            failed |= bool(problems)
        else:
            engine.flush()
            failed |= not ok
        if args.emit_bytecode:
            outputs.append(irio.module_bytecode(module) if ok else b"")
        else:  # a failed chunk keeps its place (an empty chunk), as in mlir-opt
            outputs.append(irio.module_text(module, args.mlir_print_debuginfo) if ok else "")

    # Like mlir-opt: an output file is only kept when everything succeeded; stdout gets
    # what succeeded (also under --verify-diagnostics, so its output can be FileChecked).
    if failed and args.output != "-" and not args.verify_diagnostics:
        return 1
    if args.emit_bytecode:
        irio.write_output(b"".join(outputs), args.output)  # type: ignore[arg-type]
    elif any(outputs):
        irio.write_output(f"{irio.SPLIT_MARKER}\n".join(outputs), args.output)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    return run_tool("shardpy-opt", main_body, argv)


if __name__ == "__main__":
    sys.exit(main())
