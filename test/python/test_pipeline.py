"""The pass registry, pass options and pipelines mixing Python and native passes."""
from __future__ import annotations

import enum
import gc
from dataclasses import dataclass

import pytest
from jaxlib.mlir import ir

from shardpy.ir.diagnostics import DiagnosticEngine, ShardpyError
from shardpy.pass_registry import REGISTRY, option, register_pass
from shardpy.pipeline import (Pipeline, PipelineElement, PipelineOptions, parse_pipeline,
                              pipeline_text)


class Flavour(enum.Enum):
    PLAIN = "plain"
    SPICY = "spicy"


CALLS: list[tuple[str, object]] = []


@register_pass("test-record-options")
@dataclass(frozen=True)
class RecordOptions:
    """Test pass: records its options and how many funcs the module has."""

    count: int = option(1, "an integer")
    enabled: bool = option(False, "a flag")
    flavour: Flavour = option(Flavour.PLAIN, "an enum")
    label: str = option("none", "a string")

    def run(self, module: ir.Operation) -> None:
        funcs = [op for op in module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"]
        CALLS.append((self.label, (self.count, self.enabled, self.flavour, len(funcs))))


@register_pass("test-fail-located")
@dataclass(frozen=True)
class FailLocated:
    """Test pass: fails with a located error on the first func."""

    def run(self, module: ir.Operation) -> None:
        first = module.regions[0].blocks[0].operations[0]
        raise ShardpyError("this pass always fails", first.location)


@register_pass("test-record-gc")
@dataclass(frozen=True)
class RecordGc:
    """Test pass: records whether Python's cyclic garbage collector is on."""

    def run(self, module: ir.Operation) -> None:
        CALLS.append(("gc", gc.isenabled()))


@register_pass("test-internal-bug")
@dataclass(frozen=True)
class InternalBug:
    """Test pass: a Python bug inside a pass."""

    def run(self, module: ir.Operation) -> None:
        raise KeyError("oops")


MODULE = """
func.func private @unused(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


@pytest.fixture
def module(ctx):
    return ir.Module.parse(MODULE)


def run(text, context, module, **opts):
    engine = DiagnosticEngine("test.mlir")
    with engine.capturing(context):
        ok = Pipeline(text, context, PipelineOptions(**opts)).run(module, engine)
    return ok, engine


def test_parse_pipeline_with_anchor_options_and_nesting():
    elements = parse_pipeline(
        "builtin.module(canonicalize{max-iterations=3},func.func(cse,canonicalize),shardpy-x)")
    assert elements == [
        PipelineElement("canonicalize", "max-iterations=3"),
        PipelineElement("func.func", None, (PipelineElement("cse"),
                                            PipelineElement("canonicalize"))),
        PipelineElement("shardpy-x"),
    ]
    assert pipeline_text(elements) == (
        "builtin.module(canonicalize{max-iterations=3},func.func(cse,canonicalize),shardpy-x)")


def test_parse_pipeline_without_anchor():
    assert parse_pipeline("cse, inline") == [PipelineElement("cse"), PipelineElement("inline")]
    assert parse_pipeline("") == []


@pytest.mark.parametrize("text", ["builtin.module(cse", "cse)", "a{x=1", "cse(inline))"])
def test_unbalanced_pipeline_is_an_error(text):
    with pytest.raises(ShardpyError):
        parse_pipeline(text)


def test_options_are_typed():
    info = REGISTRY["test-record-options"]
    instance = info.instantiate("count=3 enabled=true flavour=spicy label='a b'")
    assert instance == RecordOptions(3, True, Flavour.SPICY, "a b")
    assert info.instantiate(None) == RecordOptions()


@pytest.mark.parametrize("text,message", [
    ("colour=red", "has no option 'colour'"),
    ("count=many", "invalid value 'many' for option 'count'"),
    ("enabled=maybe", "invalid value 'maybe' for option 'enabled'"),
    ("flavour=sour", "(one of: plain, spicy)"),
])
def test_bad_options_are_errors(text, message):
    with pytest.raises(ShardpyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        REGISTRY["test-record-options"].instantiate(text)


def test_python_and_native_passes_run_in_order(context, module):
    CALLS.clear()
    ok, engine = run("builtin.module(test-record-options{label=first},symbol-dce,"
                     "test-record-options{label=second count=2})", context, module)
    assert ok, [d.render() for d in engine.diagnostics]
    # symbol-dce (native) removed the private unused func between the two Python runs.
    assert CALLS == [("first", (1, False, Flavour.PLAIN, 2)),
                     ("second", (2, False, Flavour.PLAIN, 1))]


def test_shardpy_pass_nested_under_func_is_rejected(context):
    with pytest.raises(ShardpyError, match="nested under 'func.func'"):
        Pipeline("builtin.module(func.func(test-record-options))", context)


def test_unknown_native_pass_is_an_error(context, module):
    with pytest.raises(ShardpyError, match="no-such-pass"):
        run("builtin.module(no-such-pass)", context, module)


def test_located_pass_error_becomes_a_diagnostic(context, module):
    ok, engine = run("builtin.module(test-fail-located)", context, module)
    assert not ok
    [diag] = engine.diagnostics
    assert diag.severity == "error" and diag.message == "this pass always fails"
    assert diag.pos is not None and diag.pos.line == 2


def test_python_bug_in_a_pass_is_one_error(context, module):
    ok, engine = run("builtin.module(test-internal-bug)", context, module)
    assert not ok
    [diag] = engine.diagnostics
    assert "internal error in pass 'test-internal-bug': KeyError" in diag.message


@pytest.mark.parametrize("collecting", [True, False])
def test_the_cyclic_collector_is_off_while_passes_run_and_as_it_was_after(
        context, module, collecting):
    CALLS.clear()
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        ok, _ = run("builtin.module(test-record-gc,test-internal-bug)", context, module)
        assert not ok and CALLS == [("gc", False)]
        assert gc.isenabled() == collecting  # (after a failing pass too)
    finally:
        (gc.enable if was else gc.disable)()


def test_step_records_and_dump_dir(context, module, tmp_path):
    engine = DiagnosticEngine()
    pipeline = Pipeline("builtin.module(canonicalize,test-record-options)", context,
                        PipelineOptions(record_steps=True, dump_dir=tmp_path))
    with engine.capturing(context):
        assert pipeline.run(module, engine)
    assert [s.name for s in pipeline.steps] == ["canonicalize", "test-record-options"]
    assert all(s.seconds >= 0 for s in pipeline.steps)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "00_input.mlir", "01_canonicalize.mlir", "02_test-record-options.mlir"]
    assert "stablehlo.add" in (tmp_path / "02_test-record-options.mlir").read_text()
