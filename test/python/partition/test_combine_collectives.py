"""shardpy-combine-collectives: which reduce_scatters are packed into one, and that the
programs it rewrites still run and match."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from jaxlib.mlir import ir

from shardpy.partition.combine_collectives import combine_reduce_scatters

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

GROUPS = "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"
PAIRS = "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"


def rs(result: str, operand: str, in_type: str, out_type: str, dim: int = 0,
       groups: str = GROUPS, channel: int = 1, element: str = "f32") -> str:
    return f"""
    {result} = "stablehlo.reduce_scatter"({operand}) <{{channel_handle = #stablehlo.channel_handle<handle = {channel}, type = 1>, replica_groups = {groups}, scatter_dimension = {dim} : i64, use_global_device_ids}}> ({{
    ^bb0(%l: tensor<{element}>, %r: tensor<{element}>):
      %s = stablehlo.add %l, %r : tensor<{element}>
      stablehlo.return %s : tensor<{element}>
    }}) : ({in_type}) -> {out_type}"""


def combined(text: str, context, **kwargs):
    module = ir.Module.parse(text, context)
    removed = combine_reduce_scatters(module.operation, **kwargs)
    assert module.operation.verify()
    names = [op.name for op in module.body.operations[0].regions[0].blocks[0].operations]
    return module, removed, names


def program(body: str, args: str, results: str, returned: str) -> str:
    return f"""
func.func @main({args}) -> ({results}) {{{body}
    return {returned}
}}"""


def test_independent_ones_become_one(ctx):
    text = program(
        rs("%a", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>")
        + rs("%b", "%y", "tensor<3x8xf32>", "tensor<3x2xf32>", dim=1, channel=2),
        "%x: tensor<8x4xf32>, %y: tensor<3x8xf32>", "tensor<2x4xf32>, tensor<3x2xf32>",
        "%a, %b : tensor<2x4xf32>, tensor<3x2xf32>")
    module, removed, names = combined(text, ctx)
    assert removed == 1
    assert names.count("stablehlo.reduce_scatter") == 1
    assert "tensor<4x14xf32>" in str(module)  # [4, 8] and [4, 6] packed: 8*4/4 + 3*8/4


def test_a_reduce_scatter_reading_another_stays_apart(ctx):
    text = program(
        rs("%a", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>")
        + "\n    %t = stablehlo.concatenate %a, %a, %a, %a, dim = 0 : "
          "(tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>"
        + rs("%b", "%t", "tensor<8x4xf32>", "tensor<2x4xf32>", channel=2),
        "%x: tensor<8x4xf32>", "tensor<2x4xf32>", "%b : tensor<2x4xf32>")
    _, removed, names = combined(text, ctx)
    assert removed == 0 and names.count("stablehlo.reduce_scatter") == 2


def test_other_groups_or_element_types_stay_apart(ctx):
    text = program(
        rs("%a", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>")
        + rs("%b", "%x", "tensor<8x4xf32>", "tensor<4x4xf32>", groups=PAIRS, channel=2)
        + rs("%c", "%h", "tensor<8x4xf16>", "tensor<2x4xf16>", channel=3, element="f16"),
        "%x: tensor<8x4xf32>, %h: tensor<8x4xf16>",
        "tensor<2x4xf32>, tensor<4x4xf32>, tensor<2x4xf16>",
        "%a, %b, %c : tensor<2x4xf32>, tensor<4x4xf32>, tensor<2x4xf16>")
    _, removed, names = combined(text, ctx)
    assert removed == 0 and names.count("stablehlo.reduce_scatter") == 3


def test_max_bytes_splits_groups(ctx):
    body = "".join(rs(f"%a{i}", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>", channel=i + 1)
                   for i in range(4))
    text = program(body, "%x: tensor<8x4xf32>", ", ".join(["tensor<2x4xf32>"] * 4),
                   ", ".join(f"%a{i}" for i in range(4)) + " : "
                   + ", ".join(["tensor<2x4xf32>"] * 4))
    _, removed, names = combined(text, ctx, max_bytes=2 * 8 * 4 * 4)  # two operands a group
    assert removed == 2 and names.count("stablehlo.reduce_scatter") == 2


def test_readers_of_an_earlier_one_move_after_the_combined_op(ctx):
    text = program(
        rs("%a", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>")
        + "\n    %m = stablehlo.multiply %a, %a : tensor<2x4xf32>"
        + rs("%b", "%y", "tensor<8x4xf32>", "tensor<2x4xf32>", channel=2),
        "%x: tensor<8x4xf32>, %y: tensor<8x4xf32>", "tensor<2x4xf32>, tensor<2x4xf32>",
        "%m, %b : tensor<2x4xf32>, tensor<2x4xf32>")
    _, removed, names = combined(text, ctx)
    assert removed == 1
    assert names.index("stablehlo.multiply") > names.index("stablehlo.reduce_scatter")


def test_a_loop_body_is_combined_too(ctx):
    body = rs("%a", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>") + rs(
        "%b", "%x", "tensor<8x4xf32>", "tensor<2x4xf32>", channel=2)
    text = f"""
func.func @main(%x0: tensor<8x4xf32>) -> tensor<8x4xf32> {{
  %r = stablehlo.while(%x = %x0) : tensor<8x4xf32>
  cond {{
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }} do {{{body}
    %t = stablehlo.concatenate %a, %b, %a, %b, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
    stablehlo.return %t : tensor<8x4xf32>
  }}
  return %r : tensor<8x4xf32>
}}"""
    module, removed, _ = combined(text, ctx)
    assert removed == 1 and str(module).count('"stablehlo.reduce_scatter"') == 1


# Gradients of an FSDP layer in a loop (each step's partial sums finished by
# reduce_scatters onto the rows), and a second pair outside it: partitioned, combined
# and run on 4 devices against one.
LOOP_GRADS = """
sdy.mesh @mesh = <["d"=4]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"d"}]>},
                %w0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %v0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %w = %w0, %v = %v0) : tensor<i32>, tensor<16x8xf32>, tensor<8x8xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %g = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %gs = stablehlo.slice %g [0:16, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<16x16xf32>) -> tensor<16x8xf32>
    %gr = sdy.reduce_scatter [{"d"}, {}] %gs out_sharding=<@mesh, [{"d"}, {}]> : tensor<16x8xf32>
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"d"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %hr = sdy.reduce_scatter [{"d"}, {}] %h out_sharding=<@mesh, [{"d"}, {}]> : tensor<8x8xf32>
    %w1 = stablehlo.add %w, %gr {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : tensor<16x8xf32>
    %v1 = stablehlo.add %v, %hr {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : tensor<8x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %w1, %v1 : tensor<i32>, tensor<16x8xf32>, tensor<8x8xf32>
  }
  return %r#1, %r#2 : tensor<16x8xf32>, tensor<8x8xf32>
}
"""


@pytest.fixture(scope="module")
def runner():
    import run_fuzz

    return run_fuzz.Runner()


def test_combined_loop_gradients_run_and_match(runner, ctx):
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.pipeline import Pipeline

    module = ir.Module.parse(LOOP_GRADS, ctx)
    Pipeline("builtin.module(shardpy-partition)", ctx).run(module, DiagnosticEngine("t"))
    assert str(module).count('"stablehlo.reduce_scatter"') == 1  # the loop's two, as one
    outcome = runner.run_text(LOOP_GRADS)
    assert outcome.status == "pass", outcome.detail[:3000]
