"""Pass registry and pipelines that mix shardpy's Python passes with native ones.

A shardpy pass is a frozen dataclass registered by name; its fields are its options:

    @register_pass("shardpy-propagate")
    @dataclass(frozen=True)
    class Propagate:
        '''One-line summary. Longer docstring with before/after IR.'''
        strategy: str = option("user-priority", "basic|aggressive|op-priority|user-priority")
        def run(self, module: ir.Operation) -> None: ...

A pipeline string uses MLIR's textual syntax, e.g.
`builtin.module(canonicalize,shardpy-propagate{strategy=basic},sdy-close-shardings)`.
Top-level shardpy passes are added to the PassManager as Python callables; everything
else goes to MLIR's own pipeline parser, so any pass jaxlib registers can be named.
One PassManager runs the whole pipeline (verifying after each pass unless told not to).
"""
from __future__ import annotations

import dataclasses
import enum
import os
import re
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from jaxlib.mlir import ir, passmanager

from .ir.diagnostics import DiagnosticEngine, ShardpyError

# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class PassInfo:
    name: str
    cls: type
    summary: str

    @property
    def options(self) -> tuple[dataclasses.Field, ...]:
        return tuple(f for f in dataclasses.fields(self.cls) if f.init)

    def option_help(self) -> str:
        parts = []
        for f in self.options:
            desc = f.metadata.get("help", "")
            parts.append(f"{option_name(f)}={_format_value(f.default)}" + (f" ({desc})" if desc else ""))
        return "; ".join(parts)

    def instantiate(self, options_text: str | None):
        return self.cls(**parse_options(self, options_text or ""))


REGISTRY: dict[str, PassInfo] = {}
PIPELINES: dict[str, tuple[str, str]] = {}  # name -> (pipeline text, summary)


def register_pipeline(name: str, text: str, summary: str) -> None:
    """A named pipeline usable like a pass (`--shardpy-partition`)."""
    PIPELINES[name] = (text, summary)


def option(default: Any, help: str = "") -> Any:
    """Declare a pass option (a dataclass field with help text)."""
    return field(default=default, metadata={"help": help})


def register_pass(name: str) -> Callable[[type], type]:
    def wrap(cls: type) -> type:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"pass {name}: {cls.__name__} must be a dataclass")
        if name in REGISTRY and REGISTRY[name].cls is not cls:
            raise ValueError(f"pass {name} registered twice")
        summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        REGISTRY[name] = PassInfo(name, cls, summary)
        cls.pass_name = name
        return cls

    return wrap


def registered_passes() -> dict[str, PassInfo]:
    """All shardpy passes (importing shardpy.passes registers them)."""
    from . import passes  # noqa: F401  (the package imports every pass module)

    return REGISTRY


def option_name(f: dataclasses.Field) -> str:
    return f.name.replace("_", "-")


def _format_value(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _convert(info: PassInfo, f: dataclasses.Field, text: str) -> Any:
    kind = type(f.default)
    try:
        if kind is bool:
            if text.lower() in ("true", "1", ""):
                return True
            if text.lower() in ("false", "0"):
                return False
            raise ValueError(text)
        if issubclass(kind, enum.Enum):
            return kind(text)
        return kind(text)
    except ValueError:
        allowed = ""
        if issubclass(kind, enum.Enum):
            allowed = " (one of: " + ", ".join(str(m.value) for m in kind) + ")"
        raise ShardpyError(
            f"invalid value '{text}' for option '{option_name(f)}' of pass "
            f"'{info.name}'{allowed}") from None


def parse_options(info: PassInfo, text: str) -> dict[str, Any]:
    """`key=value key2=value2` (MLIR pass-option syntax) into dataclass kwargs."""
    by_name = {option_name(f): f for f in info.options}
    values: dict[str, Any] = {}
    for item in _split_top_level(text.strip(), " "):
        if not item:
            continue
        key, _, raw = item.partition("=")
        f = by_name.get(key)
        if f is None:
            known = ", ".join(by_name) or "none"
            raise ShardpyError(f"pass '{info.name}' has no option '{key}' (options: {known})")
        values[f.name] = _convert(info, f, raw.strip("'\""))
    return values


# --------------------------------------------------------------------------- pipeline text


@dataclass(frozen=True)
class PipelineElement:
    """One entry of a textual pipeline: a pass (with options) or an op-anchored group."""

    name: str
    options: str | None = None
    nested: tuple["PipelineElement", ...] | None = None

    def text(self) -> str:
        out = self.name
        if self.options is not None:
            out += "{" + self.options + "}"
        if self.nested is not None:
            out += "(" + ",".join(e.text() for e in self.nested) + ")"
        return out

    def names(self):
        yield self.name
        for e in self.nested or ():
            yield from e.names()


def _split_top_level(text: str, sep: str) -> list[str]:
    parts, depth, start, quote = [], 0, 0, None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0:
                raise ShardpyError(f"unbalanced '{ch}' in '{text}'")
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth or quote:
        raise ShardpyError(f"unbalanced brackets or quotes in '{text}'")
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _parse_element(text: str) -> PipelineElement:
    name_end = len(text)
    for i, ch in enumerate(text):
        if ch in "{(":
            name_end = i
            break
    name, rest = text[:name_end].strip(), text[name_end:].strip()
    if not name:
        raise ShardpyError(f"expected a pass name in pipeline element '{text}'")
    options = nested = None
    if rest.startswith("{"):
        close = _matching(rest, 0)
        options, rest = rest[1:close], rest[close + 1:].strip()
    if rest.startswith("("):
        close = _matching(rest, 0)
        inner = rest[1:close]
        nested = tuple(_parse_element(p) for p in _split_top_level(inner, ",") if p)
        rest = rest[close + 1:].strip()
    if rest:
        raise ShardpyError(f"unexpected '{rest}' after pipeline element '{name}'")
    return PipelineElement(name, options, nested)


def _matching(text: str, open_at: int) -> int:
    pairs = {"{": "}", "(": ")"}
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == text[open_at]:
            depth += 1
        elif text[i] == pairs[text[open_at]]:
            depth -= 1
            if depth == 0:
                return i
    raise ShardpyError(f"unbalanced '{text[open_at]}' in '{text}'")


def parse_pipeline(text: str) -> list[PipelineElement]:
    """Top-level elements of `builtin.module(...)` (the anchor may be omitted); named
    pipelines are expanded."""
    text = text.strip()
    if not text:
        return []
    elements = [_parse_element(p) for p in _split_top_level(text, ",") if p]
    if len(elements) == 1 and elements[0].name in ("builtin.module", "any") \
            and elements[0].nested is not None and elements[0].options is None:
        elements = list(elements[0].nested)
    return expand_pipelines(elements)


def expand_pipelines(elements: list[PipelineElement]) -> list[PipelineElement]:
    registered_passes()  # pipelines are registered next to the passes
    out: list[PipelineElement] = []
    for element in elements:
        if element.name in PIPELINES and element.nested is None:
            if element.options:
                raise ShardpyError(f"pipeline '{element.name}' takes no options")
            out += parse_pipeline(PIPELINES[element.name][0])
        else:
            out.append(element)
    return out


def pipeline_text(elements: list[PipelineElement]) -> str:
    return "builtin.module(" + ",".join(e.text() for e in elements) + ")"


# --------------------------------------------------------------------------- running


@dataclass
class StepRecord:
    """What one top-level pipeline element did (filled when instrumentation is on)."""

    name: str
    seconds: float


@dataclass
class PipelineOptions:
    verify_each: bool = True
    timing: bool = False
    print_ir_after_all: bool = False
    dump_dir: Path | None = None
    record_steps: bool = False  # per-element wall time (for reports)


class Pipeline:
    """A parsed pipeline bound to a context, runnable on modules."""

    def __init__(self, text_or_elements, context: ir.Context,
                 options: PipelineOptions | None = None):
        self.elements = (parse_pipeline(text_or_elements)
                         if isinstance(text_or_elements, str)
                         else expand_pipelines(list(text_or_elements)))
        self.context = context
        self.options = options or PipelineOptions()
        self.steps: list[StepRecord] = []
        self.engine = DiagnosticEngine()
        self._check_elements()
        self._build(instrumented=False)  # unknown passes and bad options fail before any input

    def _check_elements(self) -> None:
        passes = registered_passes()
        for element in self.elements:
            if element.nested is not None:
                inner = [n for e in element.nested for n in e.names() if n in passes]
                if inner:
                    raise ShardpyError(
                        f"shardpy pass '{inner[0]}' is nested under '{element.name}'; shardpy "
                        f"passes run on the whole module (put it at the top level)")
            elif element.name in passes:
                passes[element.name].instantiate(element.options)  # reject bad options early

    @property
    def text(self) -> str:
        return pipeline_text(self.elements)

    def _build(self, instrumented: bool = True) -> passmanager.PassManager:
        passes = registered_passes()
        pm = passmanager.PassManager("builtin.module", context=self.context)
        pm.enable_verifier(self.options.verify_each)
        instrument = instrumented and (self.options.dump_dir is not None
                                       or self.options.record_steps)
        if instrument:
            pm.add(self._marker(None), name="ShardpyInstrument", argument="shardpy-instrument")
        for index, element in enumerate(self.elements):
            info = passes.get(element.name) if element.nested is None else None
            if info is not None:
                instance = info.instantiate(element.options)
                pm.add(self._python_pass(info, instance), name=info.cls.__name__,
                       argument=info.name)
            else:
                _add_native(pm, element)
            if instrument:
                pm.add(self._marker((index, element)), name="ShardpyInstrument",
                       argument="shardpy-instrument")
        if not instrumented:
            return pm
        if self.options.print_ir_after_all:
            self.context.enable_multithreading(False)  # MLIR requires it for IR printing
            pm.enable_ir_printing(print_after_all=True, print_module_scope=True)
        if self.options.timing:
            pm.enable_timing()
        return pm

    def _python_pass(self, info: PassInfo, instance) -> Callable:
        def run(op: ir.Operation, pass_) -> None:
            engine = self.engine
            try:
                with op.context, ir.Location.unknown():  # passes build attributes and ops
                    instance.run(op)
            except ShardpyError as err:
                engine.add_error(err)
                pass_.signal_pass_failure()
            except Exception as err:  # a bug in shardpy, not in the user's input
                engine.emit("error", None, f"internal error in pass '{info.name}': "
                                           f"{type(err).__name__}: {err}")
                if os.environ.get("SHARDPY_DEBUG"):
                    traceback.print_exc()
                pass_.signal_pass_failure()

        return run

    def _marker(self, step: tuple[int, PipelineElement] | None) -> Callable:
        def run(op: ir.Operation, pass_) -> None:
            now = time.perf_counter()
            if step is not None:
                index, element = step
                self.steps.append(StepRecord(element.name, now - self._last_mark))
                if self.options.dump_dir is not None:
                    _dump(self.options.dump_dir, index + 1, element.name, op)
            elif self.options.dump_dir is not None:
                _dump(self.options.dump_dir, 0, "input", op)
            self._last_mark = time.perf_counter()

        return run

    def run(self, module: ir.Module, engine: DiagnosticEngine) -> bool:
        """Run on `module`; diagnostics go to `engine`. True on success."""
        self.engine = engine
        self.steps = []
        self._last_mark = time.perf_counter()
        pm = self._build()
        try:
            pm.run(module.operation)
        except ir.MLIRError as err:
            self.engine.add_mlir_error(err)
            return False
        finally:
            del pm  # prints the timing report now, where callers expect it
        return True


def _dump(directory: Path, index: int, name: str, op: ir.Operation) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    (directory / f"{index:02d}_{safe}.mlir").write_text(op.get_asm(large_elements_limit=None))


def _add_native(pm: passmanager.PassManager, element: PipelineElement) -> None:
    """Add a native element; like mlir-opt, nest op-specific passes implicitly
    (`sdy-populate-op-sharding-rules` on a module runs on each func.func)."""
    try:
        pm.add(element.text())
        return
    except ValueError as err:
        anchor = re.search(r"restricted to '([\w.]+)'", str(err))
        if anchor is None:
            raise ShardpyError(_native_pipeline_error(element, err)) from None
    try:
        pm.add(f"{anchor.group(1)}({element.text()})")
    except ValueError as err:
        raise ShardpyError(_native_pipeline_error(element, err)) from None


def _native_pipeline_error(element: PipelineElement, err: ValueError) -> str:
    message = str(err).strip()
    if "does not refer to a registered pass" in message or "failed to add" in message:
        return f"cannot add '{element.text()}' to the pipeline: {message}"
    return f"invalid pipeline element '{element.text()}': {message}"
