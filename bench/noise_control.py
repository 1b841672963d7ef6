"""How far a step-time ratio of shardpy against XLA can be trusted (issue 14): what
bench/models/run.py and bench/compare_xla.py measure in the same run as the ratio.

  paired ratio  each round's shardpy call over the reference call made next to it (the
                sides alternate): a machine getting slower or faster slows both of a
                pair, so the quartiles show the noise that the ratio of medians hides.
  A/A           the reference timed against itself: a second call of the same executable
                in every round (reference, shardpy, reference again; the next round in
                reverse), each round's second reference call over its first. That is the
                noise of that program on that machine at that time.
  verdict       the paired ratios against the A/A's, by a two-sided Mann-Whitney U test
                (scipy): "faster" or "slower" where they differ at p < ALPHA (shardpy's
                median under or over the A/A's), else "within noise". With 20 rounds a
                rule on quartiles alone called one near-identical program of twelve
                slower in a run; the test called none.
  instructions  two executables' optimized HLO as multisets of (opcode, result shape),
                names, layouts and metadata dropped: how many instructions each has that
                the other lacks. 0 / 0: shardpy's per-device program compiled to the
                reference's own program, whose step time it then has, whatever one run's
                ratio says.

    verdict([0.90, 0.92, 0.89, ...], [1.01, 0.97, 1.02, ...])  -> ("faster", 3e-05)
"""
from __future__ import annotations

import collections
import re
import statistics

CONTROL = "reference_again"  # the A/A side's key in a row
VERDICTS = ("faster", "within noise", "slower")
ALPHA = 0.01  # twelve programs a run: about one run in nine calls one wrongly

# `%name = shape opcode(`: the shape up to the opcode; layouts ({1,0}) dropped
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%\S+ = (.+?) ([a-z][\w-]*)\(")
_LAYOUT = re.compile(r"\{[^}]*\}")


def round_ratios(reference_ms, other_ms) -> list[float]:
    """Each round's `other` call over its `reference` call."""
    return [o / r for r, o in zip(reference_ms, other_ms) if r > 0]


def paired_ratios(reference_ms, other_ms) -> dict | None:
    """Median and quartiles of each round's `other` call over its `reference` call
    (None under 4 rounds)."""
    ratios = sorted(round_ratios(reference_ms, other_ms))
    if len(ratios) < 4:
        return None
    q = statistics.quantiles(ratios, n=4)
    return {"median": statistics.median(ratios), "q1": q[0], "q3": q[2],
            "count": len(ratios)}


def verdict(paired: list[float], control: list[float]) -> tuple[str | None, float | None]:
    """(verdict, p value): shardpy's round ratios against the A/A's by a two-sided
    Mann-Whitney U test; None under 4 rounds on either side."""
    if len(paired) < 4 or len(control) < 4:
        return None, None
    from scipy.stats import mannwhitneyu

    p = float(mannwhitneyu(paired, control, alternative="two-sided").pvalue)
    if p >= ALPHA:
        return "within noise", p
    return ("faster" if statistics.median(paired) < statistics.median(control)
            else "slower"), p


def verdict_line(rows, name_key: str = "program") -> str:
    """One line: how many programs each verdict has, the ones not faster named."""
    parts = []
    for v in VERDICTS:
        names = [r[name_key] for r in rows if r.get("verdict") == v]
        parts.append(f"{v} {len(names)}"
                     + (f" ({', '.join(names)})" if names and v != "faster" else ""))
    return (f"Against the A/A control (Mann-Whitney U on the round ratios, p < {ALPHA}): "
            + "; ".join(parts))


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
