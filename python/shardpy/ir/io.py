"""Reading and writing modules: MLIR text or bytecode, or HLO text, from files or stdin.

Parsing goes through MLIR's own parser; errors come back through the diagnostic
engine as `file:line:col: error: ...`. `--split-input-file` chunks keep the line
numbers of the original file (each chunk is parsed after as many blank lines as
precede it), so diagnostics and `expected-error` comments agree with the file.

HLO text (a `.hlo` file, or text that starts with `HloModule`: what PyTorch/XLA and
XLA dumps print) goes through XLA's own parser and HLO -> StableHLO converter
(jaxlib_bridge); its errors keep their line:col. Ops come back located by
instruction name; the name's definition line is added, so later diagnostics point
into the HLO file too. The header's num_partitions becomes mhlo.num_partitions.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from jaxlib.mlir import ir

from .diagnostics import Diagnostic, DiagnosticEngine
from .layout import num_partitions, set_num_partitions

BYTECODE_MAGIC = b"ML\xefR"
SPLIT_MARKER = "// -----"
HLO_SUFFIX = ".hlo"
HLO_HEADER = "HloModule"


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


def is_hlo_text(text: str) -> bool:
    """Does `text` start (after blank and comment lines) with an `HloModule` header?"""
    return _hlo_header(text) is not None


def _hlo_header(text: str) -> str | None:
    """The `HloModule name, key=value, ...` line `text` starts with (after blank and
    comment lines), or None."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("//", "/*", "*")):
            return stripped if stripped.startswith(HLO_HEADER + " ") else None
    return None


def _header_partitions(text: str) -> int | None:
    """The header's `num_partitions=N`: XLA keeps it in the module's config, which the
    HLO -> StableHLO conversion drops."""
    header = _hlo_header(text) or ""
    found = re.search(r"[ ,]num_partitions=(\d+)", header)
    return int(found.group(1)) if found else None


def is_hlo_path(path: str) -> bool:
    return path.endswith(HLO_SUFFIX)


def parse_module(source: str | bytes, context: ir.Context, engine: DiagnosticEngine,
                 first_line: int = 0, hlo: bool = False) -> ir.Module | None:
    """Parse MLIR text, bytecode or (`hlo`, or detected) HLO text; None (with
    diagnostics in `engine`) on failure.

    The engine must be capturing `context`'s diagnostics.
    """
    if isinstance(source, str) and (hlo or is_hlo_text(source)):
        return parse_hlo(source, context, engine, first_line)
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


def parse_hlo(text: str, context: ir.Context, engine: DiagnosticEngine,
               first_line: int = 0) -> ir.Module | None:
    """HLO text -> StableHLO module (GSPMD shardings kept as `mhlo.sharding`)."""
    from .jaxlib_bridge import HloTextError, hlo_text_to_stablehlo

    try:
        data = hlo_text_to_stablehlo(text)
    except HloTextError as err:
        with context:  # XLA's first error, the rest (often its consequences) as notes
            located = [(ir.Location.file("-", line + first_line, col) if line else None, message)
                       for line, col, message in err.errors]
            engine.emit("error", located[0][0], located[0][1], tuple(located[1:]))
        return None
    before = len(engine.diagnostics)
    module = parse_module(data, context, engine)
    if module is None:  # XLA's HLO parser checks less than MLIR's verifier does
        for diag in engine.diagnostics[before:]:
            diag.notes = [n for n in diag.notes if not n.message.startswith("in bytecode")]
        engine.emit("note", None, "XLA read the HLO text, but its StableHLO form does not "
                                  "verify (XLA's HLO parser checks shapes less strictly)")
        return None
    with context:
        _locate_instructions(module, _instruction_lines(text, first_line))
        partitions = _header_partitions(text)
        if partitions is not None and num_partitions(module.operation) is None:
            # (what a manual region over every partition is manual over, where no tiled
            # sharding says how many there are: gspmd/codec.py MeshPlan)
            set_num_partitions(module.operation, partitions)
    return module


def _instruction_lines(text: str, first_line: int) -> dict[str, tuple[int, int]]:
    """Instruction name -> (line, col) of its definition (`[ROOT] %name = ...`).

    Only a name index for diagnostics: XLA has parsed the text already.
    """
    found: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(text.splitlines(), start=first_line + 1):
        stripped = line.lstrip()
        head, sep, _ = stripped.partition(" = ")
        if not sep:
            continue
        col = len(line) - len(stripped) + 1
        if head.startswith("ROOT "):
            head, col = head[len("ROOT "):].lstrip(), col + len("ROOT ")
        name = head.lstrip("%")
        if name and not any(c.isspace() for c in name):
            found.setdefault(name, (number, col))
    return found


def _with_position(loc: ir.Location, lines: dict[str, tuple[int, int]]) -> ir.Location | None:
    """`loc("dot.18")` -> `loc("dot.18"("-":7:3))` when the name is an instruction."""
    if loc.typeid != ir.NameLoc.static_typeid:
        return None
    name_loc = ir.NameLoc(loc)
    if name_loc.name_str not in lines or \
            name_loc.child_loc.typeid != ir.Location.unknown().typeid:
        return None
    line, col = lines[name_loc.name_str]
    return ir.Location.name(name_loc.name_str, ir.Location.file("-", line, col))


def _locate_instructions(module: ir.Module, lines: dict[str, tuple[int, int]]) -> None:
    def visit(op: ir.Operation) -> ir.WalkResult:
        located = _with_position(op.location, lines)
        if located is not None:
            op.location = located
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    located = _with_position(arg.location, lines)
                    if located is not None:
                        arg.set_location(located)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)


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
    """Read and parse one whole input (MLIR text or bytecode, HLO text)."""
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
    return parse_module(text, context, engine, hlo=is_hlo_path(path))
