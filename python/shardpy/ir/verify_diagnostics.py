"""`--verify-diagnostics`: match produced diagnostics against expected-* comments.

Same comment syntax as mlir-opt:
    // expected-error {{substring of the message}}        (this line)
    // expected-warning@+1 {{...}}   @-N, @above, @below, @N (absolute line)
    // expected-remark / expected-note
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .diagnostics import Diagnostic

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)(?:@([+-]\d+|above|below|\d+))?\s*\{\{(.*?)\}\}")


@dataclass
class Expected:
    severity: str
    line: int  # 1-based in the whole file
    text: str
    comment_line: int
    matched: bool = False


def collect_expected(text: str, first_line: int = 0) -> list[Expected]:
    """expected-* comments of one chunk; `first_line` is the chunk's 0-based offset."""
    found = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        comment_line = first_line + index + 1
        for match in _EXPECTED.finditer(line):
            severity, where, message = match.groups()
            if where is None:
                target = comment_line
            elif where in ("above", "below"):
                target = _next_code_line(lines, index, -1 if where == "above" else 1)
                target = first_line + target + 1 if target is not None else -1
            elif where[0] in "+-":
                target = comment_line + int(where)
            else:
                target = int(where)
            found.append(Expected(severity, target, message, comment_line))
    return found


def _next_code_line(lines: list[str], index: int, step: int) -> int | None:
    i = index + step
    while 0 <= i < len(lines):
        if "expected-" not in lines[i]:
            return i
        i += step
    return None


def verify(diagnostics: list[Diagnostic], expected: list[Expected], file_name: str
           ) -> list[str]:
    """Problems (empty when every diagnostic was expected and vice versa)."""
    problems = []
    flat: list[Diagnostic] = []
    for diag in diagnostics:
        flat.append(diag)
        # mlir-opt turns off the verifier's "see current operation" note in this mode.
        flat.extend(n for n in diag.notes if not n.message.startswith("see current operation"))
    for diag in flat:
        match = next((e for e in expected if not e.matched and e.severity == diag.severity
                      and diag.pos is not None and e.line == diag.pos.line
                      and e.text in diag.message), None)
        if match:
            match.matched = True
        else:
            problems.append(f"unexpected {diag.render().splitlines()[0]}")
    for e in expected:
        if not e.matched:
            problems.append(f"{file_name}:{e.comment_line}: expected {e.severity} "
                            f"'{e.text}' on line {e.line} was not produced")
    return problems
