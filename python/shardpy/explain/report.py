"""--explain and --explain-json for the tools (shardpy-run, shardpy-opt): one place
that starts the recording around a pipeline run and prints or writes the records."""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

from jaxlib.mlir import ir

from ..ir.diagnostics import ShardpyError
from .collectives import Record, explain_module, format_table
from .recorder import Recorder, recording, strip_tags
from .warnings import find_warnings


def add_arguments(parser) -> None:
    parser.add_argument("--explain", action="store_true",
                        help="print every collective of the per-device program, most "
                             "expensive first: kind, mesh axes, bytes per device, "
                             "estimated time, the op that needed it with its source "
                             "location, the layouts before and after with their origins, "
                             "and the alternatives weighed")
    parser.add_argument("--explain-json", type=Path, metavar="FILE",
                        help="write the same as JSON (one record per collective)")
    parser.add_argument("--explain-value", action="append", metavar="VALUE",
                        help="print how one value got its sharding: the chain of ops "
                             "propagation carried it through, with the level of the "
                             "hierarchy (user priority, op priority, strategy) and the "
                             "conflicts resolved on the way. VALUE: argN or resultN of "
                             "the entry function, a result's jax.result_info name, or a "
                             "location LINE, FILE:LINE or FILE:LINE:COL (every op result "
                             "there); repeatable")
    parser.add_argument("--explain-html", type=Path, metavar="FILE",
                        help="write one self-contained page: the program's data flow "
                             "with its collectives marked by cost, each value's layout "
                             "on the mesh, and the explanations on click")


def wanted(args) -> bool:
    return bool(args.explain or args.explain_json or args.explain_value
                or args.explain_html)


@contextmanager
def explaining(enabled: bool, input_name: str = "") -> Iterator[Recorder | None]:
    """A Recorder active for the block when `enabled` (else None, nothing recorded);
    `input_name`: what locations in the parsed buffer ("-") are shown as."""
    if not enabled:
        yield None
        return
    with recording(Recorder(buffer_name=input_name)) as recorder:
        yield recorder


def cost_model(platform: str = "cpu"):
    """The collective time profile the passes rank by (None where none ships)."""
    from ..sharding.collective_time import load_profile

    try:
        return load_profile(platform)
    except ShardpyError:
        return None


def explain(module: ir.Operation, recorder: Recorder, platform: str = "cpu"
            ) -> list[Record]:
    """The records of `module` (per-device, made while `recorder` was active); removes
    the tags the passes left on its locations."""
    if PER_DEVICE_ATTR not in module.attributes:
        strip_tags(module)
        raise ShardpyError("--explain reads the per-device module shardpy-partition "
                           "writes: this pipeline left a global one (run the whole "
                           "shardpy-partition, or end with shardpy-to-local)")
    with recording(recorder):  # (its buffer name for the locations read now)
        return explain_module(module, recorder, cost_model(platform))


PER_DEVICE_ATTR = "shardpy.per_device"  # (shardpy-to-local marks its output so)


def document(records: list[Record], recorder: Recorder, selectors=()) -> dict:
    """Everything --explain-json writes (and the page shows)."""
    return {"collectives": [r.to_json() for r in records],
            "warnings": [w.to_json() for w in find_warnings(recorder)],
            "values": [recorder.describe_value(s) for s in selectors or ()],
            "program": recorder.program}


def emit(records: list[Record], recorder: Recorder, args, out: TextIO) -> None:
    """What --explain, --explain-json, --explain-value and --explain-html ask for."""
    if args.explain:
        print("== why each collective is here (--explain)", file=out)
        print(format_table(records), file=out)
        found = find_warnings(recorder)
        if found:
            print(f"== {len(found)} place(s) computed or gathered whole", file=out)
            for w in found:
                print(w.line(), file=out)
    for selector in args.explain_value or ():
        print(format_value(recorder.describe_value(selector)), file=out)
    if args.explain_json or args.explain_html:
        doc = document(records, recorder, args.explain_value)
        if args.explain_json:
            args.explain_json.write_text(json.dumps(
                {k: v for k, v in doc.items() if k != "program"}, indent=2,
                default=str) + "\n")
        if args.explain_html:
            from .html import write_page

            write_page(args.explain_html, doc)


def format_value(described: dict) -> str:
    """--explain-value's text: each value's sharding and the chain behind it."""
    lines = [f"== how {described['selector']} got its sharding (--explain-value)"]
    if not described["values"]:
        lines.append("  no value there (argN, resultN, or a source location of an op)")
    for value in described["values"]:
        lines.append(f"  {value['value']}: {value['sharding']}")
        for step in value["steps"]:
            what = step.get("op") or "?"
            at = f" at {step['loc']}" if step.get("loc") else ""
            lines.append(f"    {step['how']} by {what}{at}"
                         + (f" [{step['level']}]" if step.get("level") else "")
                         + (f": {step['sharding']}" if step.get("sharding") else ""))
            if step.get("note"):
                lines.append(f"      {step['note']}")
    return "\n".join(lines)
