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
from .recorder import Recorder, recording


def add_arguments(parser) -> None:
    parser.add_argument("--explain", action="store_true",
                        help="print every collective of the per-device program, most "
                             "expensive first: kind, mesh axes, bytes per device, "
                             "estimated time, the op that needed it with its source "
                             "location, the layouts before and after with their origins, "
                             "and the alternatives weighed")
    parser.add_argument("--explain-json", type=Path, metavar="FILE",
                        help="write the same as JSON (one record per collective)")


def wanted(args) -> bool:
    return bool(args.explain or args.explain_json)


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
    with recording(recorder):  # (its buffer name for the locations read now)
        return explain_module(module, recorder, cost_model(platform))


def emit(records: list[Record], args, out: TextIO) -> None:
    """What --explain and --explain-json ask for."""
    if args.explain:
        print("== why each collective is here (--explain)", file=out)
        print(format_table(records), file=out)
    if args.explain_json:
        args.explain_json.write_text(json.dumps(
            {"collectives": [r.to_json() for r in records]}, indent=2, default=str) + "\n")
