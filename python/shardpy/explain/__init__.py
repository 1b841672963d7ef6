"""Explanations of a partitioning (issue 18): why each collective is there.

recorder.py     what the passes record while a Recorder is active (`current()`), and
                the tags that carry it through the pipeline on op locations
reasons.py      the reason each pass attaches to what it makes
collectives.py  the per-device module's collectives, each with its reasons, costs and
                alternatives: the records --explain prints
"""
from .reasons import (lowering_reason, note_placements, operand_reason,  # noqa: F401
                      result_reason)
from .recorder import Recorder, current, recording  # noqa: F401
