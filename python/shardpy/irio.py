"""Reading and writing modules: MLIR text or bytecode, from files or stdin.

Parsing goes through MLIR's own parser; errors come back through the diagnostic
engine as `file:line:col: error: ...`. `--split-input-file` chunks keep the line
numbers of the original file (each chunk is parsed after as many blank lines as
precede it), so diagnostics and `expected-error` comments agree with the file.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from jaxlib.mlir import ir

from .diagnostics import Diagnostic, DiagnosticEngine

BYTECODE_MAGIC = b"ML\xefR"
SPLIT_MARKER = "// -----"


@dataclass(frozen=True)
class Chunk:
    text: str
    first_line: int  # 0-based line of the chunk's first line in the whole file


def read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    return Path(path).read_bytes()


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def is_bytecode(data: bytes) -> bool:
    return data.startswith(BYTECODE_MAGIC)


def split_chunks(text: str) -> list[Chunk]:
    """Split on lines that are exactly `// -----` (mlir-opt's --split-input-file)."""
    chunks, current, start = [], [], 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        if line.strip() == SPLIT_MARKER:
            chunks.append(Chunk("".join(current), start))
            current, start = [], number + 1
        else:
            current.append(line)
    chunks.append(Chunk("".join(current), start))
    return chunks


def parse_module(source: str | bytes, context: ir.Context, engine: DiagnosticEngine,
                 first_line: int = 0) -> ir.Module | None:
    """Parse text or bytecode; None (with diagnostics in `engine`) on failure.

    The engine must be capturing `context`'s diagnostics.
    """
    if isinstance(source, str) and first_line:
        source = "\n" * first_line + source
    before = len(engine.diagnostics)
    try:
        with context:
            return ir.Module.parse(source)
    except ir.MLIRError as err:
        if len(engine.diagnostics) == before:
            engine.add_mlir_error(err)
        if isinstance(source, str):
            _explain(engine.diagnostics[before:], source)
        return None


def _explain(diagnostics: list[Diagnostic], source: str) -> None:
    """Add notes for parse errors whose usual cause we know."""
    lines = source.splitlines()
    for diag in diagnostics:
        if diag.pos is None or not 0 < diag.pos.line <= len(lines):
            continue
        line = lines[diag.pos.line - 1]
        if diag.message == "expected ':'" and "sdy.sharding_constraint" in line:
            diag.notes.append(Diagnostic(
                "note", diag.pos,
                "the custom form of sdy.sharding_constraint ends with ': <tensor type>', e.g. "
                "'sdy.sharding_constraint %0 <@mesh, [{}, {\"x\"}]> : tensor<4x8xf32>' "
                "(as JAX prints it)"))


def module_text(module: ir.Module | ir.Operation, debug_info: bool = False) -> str:
    op = module.operation if isinstance(module, ir.Module) else module
    return op.get_asm(enable_debug_info=debug_info)


def module_bytecode(module: ir.Module) -> bytes:
    import io

    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    return buffer.getvalue()


def write_output(data: str | bytes, path: str) -> None:
    if path == "-":
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
    elif isinstance(data, bytes):
        Path(path).write_bytes(data)
    else:
        Path(path).write_text(data)


def load_module(path: str, context: ir.Context, engine: DiagnosticEngine) -> ir.Module | None:
    """Read and parse one whole input (text or bytecode)."""
    try:
        data = read_input(path)
    except OSError as err:
        engine.emit("error", None, f"cannot read '{display_name(path)}': {err.strerror}")
        return None
    if is_bytecode(data):
        return parse_module(data, context, engine)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        engine.emit("error", None, f"'{display_name(path)}' is neither MLIR text (UTF-8) "
                                   f"nor MLIR bytecode")
        return None
    return parse_module(text, context, engine)
