"""Pipelines that mix shardpy's Python passes with native ones.

Passes are registered in shardpy.pass_registry; this module imports shardpy.passes, so
every shardpy pass and named pipeline (`shardpy-partition`) is known once it is loaded.

A pipeline string uses MLIR's textual syntax, e.g.
`builtin.module(canonicalize,shardpy-propagate{strategy=basic},sdy-close-shardings)`.
Top-level shardpy passes are added to the PassManager as Python callables; everything
else goes to MLIR's own pipeline parser, so any pass jaxlib registers can be named.
One PassManager runs the whole pipeline (verifying after each pass unless told not to).
"""
from __future__ import annotations

import gc
import os
import re
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from jaxlib.mlir import ir, passmanager

from . import passes  # noqa: F401  (importing the package registers every pass)
from .ir.diagnostics import DiagnosticEngine, ShardpyError
from .pass_registry import PIPELINES, REGISTRY, PassInfo, split_top_level


def registered_passes() -> dict[str, PassInfo]:
    """All shardpy passes (importing this module imported shardpy.passes)."""
    return REGISTRY


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
        nested = tuple(_parse_element(p) for p in split_top_level(inner, ",") if p)
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
    elements = [_parse_element(p) for p in split_top_level(text, ",") if p]
    if len(elements) == 1 and elements[0].name in ("builtin.module", "any") \
            and elements[0].nested is not None and elements[0].options is None:
        elements = list(elements[0].nested)
    return expand_pipelines(elements)


def expand_pipelines(elements: list[PipelineElement]) -> list[PipelineElement]:
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
        known = registered_passes()
        for element in self.elements:
            if element.nested is not None:
                inner = [n for e in element.nested for n in e.names() if n in known]
                if inner:
                    raise ShardpyError(
                        f"shardpy pass '{inner[0]}' is nested under '{element.name}'; shardpy "
                        f"passes run on the whole module (put it at the top level)")
            elif element.name in known:
                known[element.name].instantiate(element.options)  # reject bad options early

    @property
    def text(self) -> str:
        return pipeline_text(self.elements)

    def _build(self, instrumented: bool = True) -> passmanager.PassManager:
        known = registered_passes()
        pm = passmanager.PassManager("builtin.module", context=self.context)
        pm.enable_verifier(self.options.verify_each)
        instrument = instrumented and (self.options.dump_dir is not None
                                       or self.options.record_steps)
        if instrument:
            pm.add(self._marker(None), name="ShardpyInstrument", argument="shardpy-instrument")
        for index, element in enumerate(self.elements):
            info = known.get(element.name) if element.nested is None else None
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
        # The passes make millions of short-lived objects that reference counting frees;
        # Python's cyclic collector, triggered by their count, would walk every object
        # of the process each time (all of jax's under shardpy.jit): 30-50% of the
        # whole-program choice's time there (bench/README.md). Off while they run (what
        # they leave is mostly acyclic: reference counting frees it; see the README for
        # peak memory), on again after.
        collecting = gc.isenabled()
        gc.disable()
        try:
            pm.run(module.operation)
        except ir.MLIRError as err:
            self.engine.add_mlir_error(err)
            return False
        finally:
            del pm  # prints the timing report now, where callers expect it
            if collecting:
                gc.enable()
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
