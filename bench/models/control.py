"""How far a step-time ratio of the model benchmark can be trusted (issue 14): two
measurements bench/models/run.py makes in the same run as the ratio.

  A/A           jax.jit's step timed against itself: a second jit object of the same step
                (the same executable), called in the same rounds as the two sides, jax,
                shardpy, jax again, the next round in reverse. Its paired ratio (each
                round's second jax call over its first) is the noise of that program on
                that machine at that time. shardpy's paired median inside the A/A's
                quartiles is no difference; below them, faster beyond the noise.
  instructions  the two executables' optimized HLO as multisets of (opcode, result
                shape), names and metadata dropped: how many instructions the two do not
                have in common. 0: shardpy's per-device program compiled to jax.jit's own
                program, whose step time it then has, whatever one run's ratio says.

    verdict({"median": 0.91, ...}, {"q1": 0.97, "q3": 1.03, ...})  -> "faster"
"""
from __future__ import annotations

import collections
import re

CONTROL = "jax_again"  # the A/A side's key in a row

# `%name = shape opcode(`, the shape up to the opcode; layouts ({1,0}) are dropped
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%\S+ = (.+?) ([a-z][\w-]*)\(")
_LAYOUT = re.compile(r"\{[^}]*\}")


def instructions(hlo_text: str) -> collections.Counter:
    """The (opcode, result shape) of every instruction of every computation."""
    found = collections.Counter()
    for line in hlo_text.splitlines():
        m = _INSTRUCTION.match(line)
        if m:
            found[(m.group(2), _LAYOUT.sub("", m.group(1)))] += 1
    return found


def instruction_difference(jax_hlo: str, shardpy_hlo: str) -> dict:
    """How many instructions each executable has that the other lacks, and their
    sizes."""
    a, b = instructions(jax_hlo), instructions(shardpy_hlo)
    return {"jax_only": sum((a - b).values()), "shardpy_only": sum((b - a).values()),
            "jax_total": sum(a.values()), "shardpy_total": sum(b.values())}


def verdict(paired: dict | None, control: dict | None) -> str | None:
    """"faster" where shardpy's paired median is under the A/A's lower quartile,
    "slower" where it is over its upper quartile, else "within noise"."""
    if not paired or not control:
        return None
    if paired["median"] < control["q1"]:
        return "faster"
    if paired["median"] > control["q3"]:
        return "slower"
    return "within noise"


def fmt_difference(diff: dict | None) -> str:
    if not diff:
        return "–"
    if diff["jax_only"] == diff["shardpy_only"] == 0:
        return f"0 of {diff['jax_total']:,} (same program)"
    return f"{diff['jax_only']} / {diff['shardpy_only']} of {diff['jax_total']:,}"
