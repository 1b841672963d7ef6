"""Diagnostics: one stream for MLIR's native diagnostics and shardpy's own.

Every user-facing problem ends as `file:line:col: severity: message`, like mlir-opt.
Native diagnostics arrive through the context's handler (parser, verifier) or inside
an `ir.MLIRError` (pass failures); shardpy code raises `ShardpyError` or calls
`warning(...)`, both with an `ir.Location`.
"""
from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from typing import Iterator

from jaxlib.mlir import ir

_SHOW_OP_DUMPS = bool(os.environ.get("SHARDPY_DEBUG"))

SEVERITY_NAMES = {
    ir.DiagnosticSeverity.ERROR: "error",
    ir.DiagnosticSeverity.WARNING: "warning",
    ir.DiagnosticSeverity.REMARK: "remark",
    ir.DiagnosticSeverity.NOTE: "note",
}


class ShardpyError(Exception):
    """A user-facing error tied to a source location (None: no location known)."""

    def __init__(self, message: str, location: ir.Location | None = None,
                 notes: tuple[tuple[ir.Location | None, str], ...] = ()):
        super().__init__(message)
        self.message = message
        self.location = location
        self.notes = notes


@dataclass(frozen=True)
class SourcePos:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    severity: str
    pos: SourcePos | None
    message: str
    notes: list["Diagnostic"] = field(default_factory=list)

    def render(self) -> str:
        where = f"{self.pos}: " if self.pos else ""
        lines = [f"{where}{self.severity}: {self.message}"]
        lines += [note.render() for note in self.notes]
        return "\n".join(lines)


def file_position(loc: ir.Location) -> tuple[str, int, int] | None:
    """The first file:line:col inside `loc` (names, call sites and fusions unwrapped)."""
    typeid = loc.typeid
    if typeid == ir.FileLineColLoc.static_typeid:
        file_loc = ir.FileLineColLoc(loc)
        return file_loc.filename, file_loc.start_line, file_loc.start_col
    if typeid == ir.NameLoc.static_typeid:
        return file_position(ir.NameLoc(loc).child_loc)
    if typeid == ir.CallSiteLoc.static_typeid:
        return file_position(ir.CallSiteLoc(loc).callee)
    if typeid == ir.FusedLoc.static_typeid:
        for inner in ir.FusedLoc(loc).locations:
            found = file_position(inner)
            if found:
                return found
    return None


class DiagnosticEngine:
    """Collects diagnostics for one input; renders them against the input's name.

    The parser names its buffer "-"; `buffer_name` is what users see instead.
    """

    def __init__(self, buffer_name: str = "-"):
        self.buffer_name = buffer_name
        self.diagnostics: list[Diagnostic] = []

    # -- conversion ---------------------------------------------------------------
    def position(self, loc: ir.Location | None) -> SourcePos | None:
        if loc is None:
            return None
        found = file_position(loc)
        if found is None:
            return None
        file, line, col = found
        return SourcePos(self.buffer_name if file == "-" else file, line, col)

    def _from_native(self, diag) -> Diagnostic:
        # MLIR attaches the whole failing op in generic form as a note ("see current
        # operation: ..."); users get the located message, SHARDPY_DEBUG=1 the dump too.
        notes = [self._from_native(note) for note in diag.notes
                 if _SHOW_OP_DUMPS or not note.message.startswith("see current operation")]
        return Diagnostic(SEVERITY_NAMES.get(diag.severity, "error"),
                          self.position(diag.location), diag.message, notes)

    # -- producers ----------------------------------------------------------------
    def emit(self, severity: str, loc: ir.Location | None, message: str,
             notes: tuple = ()) -> Diagnostic:
        diag = Diagnostic(severity, self.position(loc), message,
                          [Diagnostic("note", self.position(n_loc), n_msg)
                           for n_loc, n_msg in notes])
        self.diagnostics.append(diag)
        return diag

    def add_native(self, diag) -> None:
        self.diagnostics.append(self._from_native(diag))

    def add_mlir_error(self, err: ir.MLIRError) -> None:
        if err.error_diagnostics:
            for diag in err.error_diagnostics:
                self.add_native(diag)
        elif not any(d.severity == "error" for d in self.diagnostics):
            self.emit("error", None, err.message)

    def add_error(self, err: ShardpyError) -> None:
        self.emit("error", err.location, err.message, err.notes)

    @contextlib.contextmanager
    def capturing(self, context: ir.Context) -> Iterator["DiagnosticEngine"]:
        """Route the context's native diagnostics and shardpy warnings here."""

        def handler(diag) -> bool:
            self.add_native(diag)
            return True  # handled: nothing printed by MLIR itself

        handle = context.attach_diagnostic_handler(handler)
        _ENGINES.append(self)
        try:
            yield self
        finally:
            _ENGINES.remove(self)
            handle.detach()

    # -- consumers ----------------------------------------------------------------
    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def flush(self, stream=None) -> None:
        """Print and forget everything collected so far."""
        stream = stream or sys.stderr
        for diag in self.diagnostics:
            print(diag.render(), file=stream)
        self.diagnostics.clear()


_ENGINES: list[DiagnosticEngine] = []


def warning(loc: ir.Location | None, message: str) -> None:
    """Report a warning from a pass: to the active engine, else straight to stderr."""
    if _ENGINES:
        _ENGINES[-1].emit("warning", loc, message)
    else:
        print(Diagnostic("warning", DiagnosticEngine().position(loc), message).render(),
              file=sys.stderr)


def remark(loc: ir.Location | None, message: str) -> None:
    if _ENGINES:
        _ENGINES[-1].emit("remark", loc, message)
