"""Values crossing from one mesh to another, at every kind of boundary shardpy treats
as structural, partitioned and run on 8 CPU devices against the one-device program.

Each case is one boundary (a call's operand, a call's result, a callee's result,
@main's result, optimization_barrier, while, case, if, manual_computation,
named_computation, sharding_constraint, an unannotated result or case index: whole on
every device) where a value on mesh @src must end up on mesh
@dst, for pairs of meshes that differ in device order only, in size (a subset of the
devices, a superset), in axis names only, or in the symbol's name only. Every value
crossing goes through one path (shardpy-insert-reshards' reshards, whose layouts
compare meshes, and the reshard planner's cross-mesh plans), so each case must either
compute the right values or be rejected with a clear located error; all of these are
supported now, so they must pass (a collective over a smaller mesh whose groups do
not divide the other devices is the one move left unsupported: shardpy-to-local's
error).

A failure names its case; print one with
    python test/python/partition/test_mesh_crossing.py KIND PAIR > case.mlir
    shardpy-run case.mlir --check
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

T = "tensor<8x16xf32>"

# name -> (source mesh, source sharding, target mesh, target sharding, manual axis of
# the target, local type of a manual body)
PAIRS = {
    "device_order": ('<["x"=2, "y"=4]>', '[{"x"}, {}]',
                     '<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>',
                     '[{"x"}, {"y"}]', "x", "tensor<4x16xf32>"),
    "device_order_same_layout": ('<["r"=2, "c"=4]>', '[{"r"}, {}]',
                                 '<["r"=2, "c"=4], device_ids=[4, 5, 6, 7, 0, 1, 2, 3]>',
                                 '[{"r"}, {}]', "r", "tensor<4x16xf32>"),
    "subset": ('<["x"=2, "y"=4]>', '[{"x"}, {}]', '<["x"=2, "y"=2]>', '[{"x"}, {"y"}]',
               "x", "tensor<4x16xf32>"),
    "subset_same_layout": ('<["d"=2, "t"=4]>', '[{"d"}, {}]', '<["d"=2]>', '[{"d"}, {}]',
                           "d", "tensor<4x16xf32>"),
    "superset": ('<["x"=2]>', '[{"x"}, {}]', '<["x"=2, "y"=4]>', '[{"x"}, {"y"}]', "x",
                 "tensor<4x16xf32>"),
    "axis_names": ('<["x"=2, "y"=4]>', '[{"x"}, {}]', '<["p"=2, "q"=4]>', '[{"p"}, {"q"}]',
                   "p", "tensor<4x16xf32>"),
    "axis_sizes": ('<["x"=2, "y"=4]>', '[{"x"}, {"y"}]', '<["p"=4, "q"=2]>',
                   '[{"p"}, {"q"}]', "p", "tensor<2x16xf32>"),
    "symbol_name": ('<["x"=2, "y"=4]>', '[{"x"}, {}]', '<["x"=2, "y"=4]>', '[{}, {"y"}]',
                    "y", None),
}


def _main(args: str, results: str, body: str) -> str:
    return f"func.func public @main({args}) -> ({results}) {{\n{body}\n}}\n"


def _src_arg(extra: str = "") -> str:
    return f'%a: {T} {{sdy.sharding = #sdy.sharding<@src, SA>}}' + extra


# Two branches (case, if) and the result's sharding on @dst.
BRANCHES = f"""({{
    %s = stablehlo.sine %a : {T}
    stablehlo.return %s : {T}
  }}, {{
    %c = stablehlo.cosine %a : {T}
    stablehlo.return %c : {T}
  }}) {{sdy.sharding = #sdy.sharding_per_value<[<@dst, SB>]>}}"""

KINDS = {
    "call_operand": _main(_src_arg(), f"{T} {{sdy.sharding = #sdy.sharding<@dst, SB>}}", f"""
  %0 = call @body(%a) : ({T}) -> {T}
  return %0 : {T}""") + f"""
func.func private @body(%x: {T} {{sdy.sharding = #sdy.sharding<@dst, SB>}}) -> ({T} {{sdy.sharding = #sdy.sharding<@dst, SB>}}) {{
  %0 = stablehlo.sine %x : {T}
  return %0 : {T}
}}""",
    "call_result": _main(_src_arg(), T, f"""
  %0 = call @body(%a) {{sdy.sharding = #sdy.sharding_per_value<[<@dst, SB>]>}} : ({T}) -> {T}
  %1 = stablehlo.cosine %0 : {T}
  return %1 : {T}""") + f"""
func.func private @body(%x: {T}) -> {T} {{
  %0 = stablehlo.sine %x : {T}
  return %0 : {T}
}}""",
    "callee_result": _main(_src_arg(), T, f"""
  %0 = call @body(%a) : ({T}) -> {T}
  %1 = stablehlo.cosine %0 : {T}
  return %1 : {T}""") + f"""
func.func private @body(%x: {T} {{sdy.sharding = #sdy.sharding<@src, SA>}}) -> ({T} {{sdy.sharding = #sdy.sharding<@dst, SB>}}) {{
  %0 = stablehlo.sine %x : {T}
  return %0 : {T}
}}""",
    "main_result": _main(_src_arg(), f"{T} {{sdy.sharding = #sdy.sharding<@dst, SB>}}", f"""
  %0 = stablehlo.tanh %a : {T}
  return %0 : {T}"""),
    "optimization_barrier": _main(_src_arg(), f"{T} {{sdy.sharding = #sdy.sharding<@dst, SB>}}", f"""
  %0 = stablehlo.optimization_barrier {{sdy.sharding = #sdy.sharding_per_value<[<@dst, SB>]>}} %a : {T}
  %1 = stablehlo.tanh %0 : {T}
  return %1 : {T}"""),
    "while": _main(_src_arg(), T, f"""
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %a) : tensor<i32>, {T} attributes {{sdy.sharding = #sdy.sharding_per_value<[<@dst, []>, <@dst, SB>]>}}
    cond {{
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }} do {{
    %w = stablehlo.sine %v : {T}
    %n = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %n, %w : tensor<i32>, {T}
  }}
  %1 = stablehlo.cosine %0#1 : {T}
  return %1 : {T}"""),
    "case": _main(_src_arg(", %k: tensor<i32>"), T, f"""
  %0 = "stablehlo.case"(%k) {BRANCHES} : (tensor<i32>) -> {T}
  %1 = stablehlo.tanh %0 : {T}
  return %1 : {T}"""),
    "if": _main(_src_arg(", %k: tensor<i32>"), T, f"""
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.compare GT, %k, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %0 = "stablehlo.if"(%p) {BRANCHES} : (tensor<i1>) -> {T}
  %1 = stablehlo.tanh %0 : {T}
  return %1 : {T}"""),
    "manual_computation": _main(_src_arg(), T, f"""
  %0 = sdy.manual_computation(%a) in_shardings=[<@dst, SB>] out_shardings=[<@dst, SB>] manual_axes={{"M"}} (%x: LOCAL) {{
    %s = stablehlo.sine %x : LOCAL
    sdy.return %s : LOCAL
  }} : ({T}) -> {T}
  %1 = stablehlo.tanh %0 : {T}
  return %1 : {T}"""),
    "named_computation": _main(_src_arg(), T, f"""
  %0 = sdy.named_computation<"f">(%a) in_shardings=[<@dst, SB>] out_shardings=[<@dst, SB>] (%x: {T}) {{
    %s = stablehlo.sine %x : {T}
    sdy.return %s : {T}
  }} : ({T}) -> {T}
  %1 = stablehlo.tanh %0 : {T}
  return %1 : {T}"""),
    # Unannotated values are whole on every device: from a mesh of fewer devices, the
    # others get them too (@main's result, a case index).
    "unannotated_result": _main(f"%a: {T} {{sdy.sharding = #sdy.sharding<@dst, [{{}}, {{}}]>}}", T, f"""
  %0 = stablehlo.negate %a : {T}
  return %0 : {T}"""),
    "case_index": _main(_src_arg(", %k: tensor<i32> {sdy.sharding = #sdy.sharding<@dst, []>}"), T, f"""
  %0 = "stablehlo.case"(%k) ({{
    %s = stablehlo.sine %a : {T}
    stablehlo.return %s : {T}
  }}, {{
    %c = stablehlo.cosine %a : {T}
    stablehlo.return %c : {T}
  }}) : (tensor<i32>) -> {T}
  return %0 : {T}"""),
    "sharding_constraint": _main(_src_arg(), T, f"""
  %0 = sdy.sharding_constraint %a <@dst, SB> : {T}
  %1 = stablehlo.tanh %0 : {T}
  return %1 : {T}"""),
}


def case_text(kind: str, pair: str) -> str | None:
    src, sa, dst, sb, manual, local = PAIRS[pair]
    if kind == "manual_computation" and local is None:
        return None
    text = (f"sdy.mesh @src = {src}\nsdy.mesh @dst = {dst}\n" + KINDS[kind])
    return (text.replace("SA", sa).replace("SB", sb).replace("LOCAL", local or "")
            .replace('"M"', f'"{manual}"'))


CASES = [(k, p) for k in KINDS for p in PAIRS if case_text(k, p) is not None]


@pytest.fixture(scope="module")
def runner():
    import run_fuzz

    return run_fuzz.Runner()


def run_manual(runner, text: str, reference_text: str):
    """Like runner.run_text, with the one-device reference run from `reference_text`:
    a manual computation's body is per-device code with no single-device meaning (and
    XLA's own partitioner, shardpy-run's reference for such modules, does not take
    manual axes on a mesh of fewer devices or of other axis sizes)."""
    from jaxlib.mlir import ir

    from shardpy.runtime import arrays
    from shardpy.runtime import executor as runtime
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.passes.strip_shardings import StripShardings

    context = runner.context
    engine = DiagnosticEngine("case.mlir")
    with engine.capturing(context):
        module = ir.Module.parse(text, context)
        sig = runtime.signature(module.operation)
        inputs = arrays.random_inputs([v.type for v in sig.args], 0)
        ok = runner.pipeline.run(module, engine)
        diagnostics = "\n".join(d.render() for d in engine.diagnostics)
        if not ok or engine.has_errors:
            return "partition-error", diagnostics
        reference = ir.Module.parse(reference_text, context)
        with context, reference.operation.location:
            StripShardings().run(reference.operation)
        expected = runner.executor.run_global(reference.operation, inputs).outputs
        result = runner.executor.run_per_device(module.operation, sig, inputs)
    lines = [arrays.compare(f"out{i}", a, e, 1e-4, 1e-5)
             for i, (a, e) in enumerate(zip(result.outputs, expected))]
    bad = [c.line() for c in lines if not c.ok]
    bad += [f"out{i} replicas disagree by {d}"
            for i, d in enumerate(result.replica_divergence) if d > 1e-5]
    return ("mismatch", "\n".join(bad)) if bad else ("pass", "")


@pytest.mark.parametrize("kind,pair", CASES)
def test_value_crossing_meshes(kind, pair, runner):
    text = case_text(kind, pair)
    if kind == "manual_computation":
        # The body (a sine of the shard) computes what the named computation's does.
        status, detail = run_manual(runner, text, case_text("named_computation", pair))
        assert status == "pass", f"{kind}/{pair}: {status}\n{detail[:3000]}\n{text}"
        return
    outcome = runner.run_text(text)
    assert outcome.status == "pass", f"{kind}/{pair}: {outcome.status}\n" \
                                     f"{outcome.detail[:3000]}\n{text}"


if __name__ == "__main__":
    print(case_text(sys.argv[1], sys.argv[2]))
