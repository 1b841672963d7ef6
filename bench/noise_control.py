"""How far a step-time ratio of shardpy against XLA can be trusted (issue 14): what
bench/models/run.py and bench/compare_xla.py measure in the same run as the ratio.

  paired ratio  each round's shardpy call over the reference call made next to it (the
                sides alternate): a machine getting slower or faster slows both of a
                pair, so the quartiles show the noise that the ratio of medians hides.
  A/A           the reference timed against itself: a second call of the same executable
                in every round (reference, shardpy, reference again; the next round in
                reverse), each round's second reference call over its first. That is the
                noise of that program on that machine at that time. shardpy's paired
                median inside the A/A's quartiles is no difference; under them, faster
                beyond the noise; over them, slower.
  instructions  two executables' optimized HLO as multisets of (opcode, result shape),
                names, layouts and metadata dropped: how many instructions each has that
                the other lacks. 0 / 0: shardpy's per-device program compiled to the
                reference's own program, whose step time it then has, whatever one run's
                ratio says.

    verdict({"median": 0.91, ...}, {"q1": 0.97, "q3": 1.03, ...})  -> "faster"
"""
from __future__ import annotations

import collections
import re
import statistics

CONTROL = "reference_again"  # the A/A side's key in a row
VERDICTS = ("faster", "within noise", "slower")

# `%name = shape opcode(`: the shape up to the opcode; layouts ({1,0}) dropped
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%\S+ = (.+?) ([a-z][\w-]*)\(")
_LAYOUT = re.compile(r"\{[^}]*\}")


def paired_ratios(reference_ms, other_ms) -> dict | None:
    """Median and quartiles of each round's `other` call over its `reference` call
    (None under 4 rounds)."""
    ratios = sorted(o / r for r, o in zip(reference_ms, other_ms) if r > 0)
    if len(ratios) < 4:
        return None
    q = statistics.quantiles(ratios, n=4)
    return {"median": statistics.median(ratios), "q1": q[0], "q3": q[2],
            "count": len(ratios)}


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


def verdict_line(rows, name_key: str = "program") -> str:
    """One line: how many programs each verdict has, the ones not faster named."""
    parts = []
    for v in VERDICTS:
        names = [r[name_key] for r in rows if r.get("verdict") == v]
        parts.append(f"{v} {len(names)}"
                     + (f" ({', '.join(names)})" if names and v != "faster" else ""))
    return ("Against the A/A control (shardpy's paired median under / inside / over the "
            "A/A's quartiles): " + "; ".join(parts))


def instructions(hlo_text: str) -> collections.Counter:
    """The (opcode, result shape) of every instruction of every computation."""
    found = collections.Counter()
    for line in hlo_text.splitlines():
        m = _INSTRUCTION.match(line)
        if m:
            found[(m.group(2), _LAYOUT.sub("", m.group(1)))] += 1
    return found


def instruction_difference(reference_hlo: str, shardpy_hlo: str) -> dict:
    """How many instructions each executable has that the other lacks, and their
    totals."""
    a, b = instructions(reference_hlo), instructions(shardpy_hlo)
    return {"reference_only": sum((a - b).values()), "shardpy_only": sum((b - a).values()),
            "reference_total": sum(a.values()), "shardpy_total": sum(b.values())}


def fmt_paired(paired: dict | None) -> str:
    if not paired:
        return "–"
    return f"{paired['median']:.2f}× ({paired['q1']:.2f}–{paired['q3']:.2f})"


def fmt_difference(diff: dict | None) -> str:
    if not diff:
        return "–"
    if diff["reference_only"] == diff["shardpy_only"] == 0:
        return f"0 of {diff['reference_total']:,} (same program)"
    return f"{diff['reference_only']} / {diff['shardpy_only']} of {diff['reference_total']:,}"
