"""Explanations of a partitioning (issue 18): why each collective is there.

recorder.py     what the passes record while a Recorder is active (`current()`), and
                the tags that carry it through the pipeline on op locations
reasons.py      the reason each pass attaches to what it makes
collectives.py  the per-device module's collectives, each with its reasons, costs and
                alternatives: the records --explain prints
warnings.py     values gathered whole and ops computed replicated, with what would avoid it
report.py       the tools' flags (--explain, --explain-json, --explain-value, --explain-html)
html.py         the page of --explain-html

The stages (propagation, partition) call into recorder.py and reasons.py while a Recorder
is active; nothing here imports a stage.

May import: shardpy.ir, shardpy.sharding.
"""
from .reasons import (lowering_reason, note_fallback, note_placements,  # noqa: F401
                      note_reshard_plans, operand_reason, result_reason)
from .recorder import Recorder, current, recording, where  # noqa: F401
