"""shardpy-choose-shardings: candidates, what stays fixed, the whole-program choice, and
every changed program executed against the unpartitioned one."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from jaxlib.mlir import ir

from shardpy.ops.registry import RULES
from shardpy.partition import choice_program
from shardpy.partition.choice_program import candidates
from shardpy.partition.choose_shardings import ShardingChoice
from shardpy.partition.plan_cache import PlanCache
from shardpy.partition.plan_choice import choose_plan
from shardpy.sharding.collective_time import load_profile
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding
from shardpy.sharding.state import ShardingState

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

MESH = Mesh((("data", 4),))


def sharding(*dims, mesh=MESH):
    return TensorSharding(mesh, tuple(DimSharding(tuple(AxisRef(a) for a in d)) for d in dims),
                          mesh_name="mesh")


def layouts(found):
    return [[[a.name for a in d.axes] for d in s.dims] for s in found]


def test_candidates_move_axes_and_add_unused_ones():
    cache = PlanCache(RULES, choose_plan)
    found = candidates(cache.intern(sharding([], ["data"])), (32, 64), cache)
    assert layouts(found) == [[[], ["data"]], [["data"], []]]
    # a dim the axes do not divide is not a candidate
    assert layouts(candidates(cache.intern(sharding([], ["data"])), (2, 64), cache)) == [
        [[], ["data"]]]
    # a replicated value: the unused axis on each dim it divides, major dims first
    found = candidates(cache.intern(sharding([], [], [])), (8, 3, 4), cache)
    assert layouts(found) == [[[], [], []], [["data"], [], []], [[], [], ["data"]]]
    # at most MAX_CANDIDATES, the propagated sharding first
    two = Mesh((("a", 2), ("b", 2)))
    found = candidates(cache.intern(sharding(["a"], [], [], mesh=two)), (4, 4, 4), cache)
    assert len(found) == 4 and layouts(found)[0] == [["a"], [], []]


# Four weights and a batch, FSDP-style; the first two ops (shared with CALL below). 512
# rows: with a small batch (32) insert-reshards' own plans for propagation's shardings
# move less than gathering the weights, and nothing is worth changing.
HEAD = """
sdy.mesh @mesh = <["data"=4]>
func.func public @main(%arg0: tensor<512x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                       %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>},
                       %arg2: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                       %arg3: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>})
    -> tensor<512x64xf32> {
  %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<64xf32>) -> tensor<512x64xf32>
  %1 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x64xf32>
"""

FSDP = HEAD + """  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x256xf32>) -> tensor<512x256xf32>
  %3 = stablehlo.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x256xf32>
  %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x256xf32>, tensor<256x64xf32>) -> tensor<512x64xf32>
  return %4 : tensor<512x64xf32>
}
"""


def choose(text: str, context):
    module = ir.Module.parse(text, context)
    args_before = str(module.body.operations[1].attributes["arg_attrs"])
    choice = ShardingChoice(module.operation, RULES, load_profile("cpu"))
    choice.run()
    func = module.body.operations[1]
    assert str(func.attributes["arg_attrs"]) == args_before  # arguments never change
    assert module.operation.verify()
    return module, choice.report


def result_layouts(module):
    state = ShardingState(module.operation)
    func = module.body.operations[1]
    return [[[a.name for a in d.axes] for d in state.of(op.results[0]).dims]
            for op in func.regions[0].blocks[0].operations if op.name != "func.return"]


@pytest.mark.parametrize("solver", ["elimination", "integer program"])
def test_fsdp_activations_move_to_the_batch(ctx, monkeypatch, solver):
    if solver == "integer program":  # elimination declines: every table too large
        monkeypatch.setattr(choice_program, "MAX_TABLE", 1)
    module, report = choose(FSDP, ctx)
    assert report["solver"] == solver
    assert report["changed_values"] == 5
    assert report["estimated_s_after"] < report["estimated_s_before"]
    assert result_layouts(module) == [[["data"], []]] * 5


def test_nothing_to_gain_keeps_propagation(ctx):
    text = FSDP.replace('[{}, {"data"}]>]>', '[{"data"}, {}]>]>')  # already batch-sharded
    module, report = choose(text, ctx)
    assert report["changed_values"] == 0
    assert result_layouts(module) == [[["data"], []]] * 5



# The FSDP program batch-sharded, with a row count the axis does not divide (6 rows on
# 4 devices): propagation's sharding of the activations is uneven (padded), the other
# candidate (the axis on dim 1) even.
UNEVEN = FSDP.replace('[{}, {"data"}]>]>', '[{"data"}, {}]>]>').replace("tensor<512x",
                                                                        "tensor<6x")


def _free_groups(monkeypatch):
    """Record which groups' elementwise ops _free_elementwise left out of the costs."""
    found = []
    real = ShardingChoice._free_elementwise

    def spy(self, op, name, group):
        free = real(self, op, name, group)
        found.append((name, free))
        return free
    monkeypatch.setattr(ShardingChoice, "_free_elementwise", spy)
    return found


@pytest.mark.parametrize("text", [FSDP, UNEVEN], ids=["fsdp", "uneven"])
def test_fused_elementwise_ops_of_one_group_are_not_costed(ctx, monkeypatch, text):
    """An elementwise op XLA fuses (no compute of its own) whose operands and results
    all belong to one group takes that group's candidate everywhere: nothing moves, so
    its table is zero under every candidate and it is left out of the costs. The choice
    and its estimates are what costing it gives. Not where a candidate is uneven (the
    op then works on padded shards, which costs)."""
    found = _free_groups(monkeypatch)
    fast, fast_report = choose(text, ctx)
    assert ("stablehlo.tanh", text is FSDP) in found
    monkeypatch.setattr(ShardingChoice, "_free_elementwise", lambda *args: False)
    costed, costed_report = choose(text, ctx)
    assert str(fast) == str(costed)
    for key in ("changed_values", "estimated_s_before", "estimated_s_after"):
        assert fast_report[key] == costed_report[key]

LOOP = """
sdy.mesh @mesh = <["data"=4]>
func.func public @main(%arg0: tensor<512x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                       %arg1: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<512x64xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x64xf32>) -> tensor<512x64xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %0, %i = %c) : tensor<512x64xf32>, tensor<i32>
   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>, <@mesh, []>]>}
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %t = stablehlo.dot_general %iterArg, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x64xf32>) -> tensor<512x64xf32>
    %u = stablehlo.tanh %t {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x64xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %u, %n : tensor<512x64xf32>, tensor<i32>
  }
  return %1#0 : tensor<512x64xf32>
}
"""


def test_loop_carries_move_with_the_body(ctx):
    """A carry (the while's result and its block arguments: one sharding) is a value
    like any other: here the dot before the loop, the carry and the dot and tanh in the
    body all move to the batch together (the weight gathered, three times)."""
    module, report = choose(LOOP, ctx)
    assert report["changed_values"] > 0
    state = ShardingState(module.operation)
    func = module.body.operations[1]
    ops = [op for op in func.regions[0].blocks[0].operations]
    loop = next(op for op in ops if op.name == "stablehlo.while")
    body = [op for op in loop.regions[1].blocks[0].operations]
    for value in [ops[0].results[0], loop.results[0], body[0].results[0],
                  body[1].results[0], loop.regions[1].blocks[0].arguments[0]]:
        assert [[a.name for a in d.axes] for d in state.of(value).dims] == [["data"], []]


CALL = HEAD + """  %2 = call @_layer(%1, %arg2) : (tensor<512x64xf32>, tensor<64x256xf32>) -> tensor<512x256xf32>
  %3 = stablehlo.dot_general %2, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x256xf32>, tensor<256x64xf32>) -> tensor<512x64xf32>
  return %3 : tensor<512x64xf32>
}
func.func private @_layer(%x: tensor<512x64xf32>, %w: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<512x256xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : (tensor<512x64xf32>, tensor<64x256xf32>) -> tensor<512x256xf32>
  %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"data"}]>]>} : tensor<512x256xf32>
  return %1 : tensor<512x256xf32>
}
"""


def test_a_function_called_once_is_chosen_with_its_caller(ctx):
    """A private function called once (what JAX emits for jnp.where, jnp.take...; the
    import gives every call site its own copy) has its arguments and results chosen
    like any value, with the call's operands and the callee's return as boundaries:
    here the unannotated activation argument (a whole value, gathered at the call)
    moves to the batch with the ops around it. The callee's result is written as the
    call's result is (batch-sharded: at 512 rows the [256, 64] weight gathered for the
    last dot costs less than gathering the [512, 256] activation)."""
    module, report = choose(CALL, ctx)
    assert report["changed_values"] > 0
    state = ShardingState(module.operation)
    main, callee = module.body.operations[1], module.body.operations[2]
    batch = [["data"], []]

    def layout(s):  # (None: whole, as an unannotated value is)
        return [[a.name for a in d.axes] for d in s.dims] if s is not None else [[], []]

    call = [op for op in main.regions[0].blocks[0].operations if op.name == "func.call"][0]
    assert layout(state.func_arg_sharding(callee, 0)) == batch
    assert layout(state.func_result_sharding(callee, 0)) == layout(state.of(call.results[0]))
    body = [op for op in callee.regions[0].blocks[0].operations if op.name != "func.return"]
    assert [layout(state.of(op.results[0])) for op in body] == [batch, batch]


@pytest.fixture(scope="module")
def runner():
    import run_fuzz

    return run_fuzz.Runner()


@pytest.mark.parametrize("text", [FSDP, LOOP, CALL], ids=["fsdp", "loop", "call"])
def test_chosen_programs_run(runner, text):
    outcome = runner.run_text(text)
    assert outcome.status == "pass", outcome.detail[:3000]
