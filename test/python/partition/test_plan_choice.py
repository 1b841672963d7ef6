"""plan_choice: how one op is computed on shards, ranked by plan_costs (compute time)."""
from __future__ import annotations

from jaxlib.mlir import ir

from shardpy.partition.plan_choice import OpPlan
from shardpy.partition.plan_costs import compute_time
from shardpy.sharding.collective_time import load_profile
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding

MESH = Mesh((("data", 2), ("model", 4)))
MODEL = load_profile("cpu")

# An embedding lookup (the gather of JAX's `table[ids]`) and a KV-cache update.
PROGRAM = """
func.func @f(%table: tensor<512x256xf32>, %ids: tensor<8x1xi32>, %cache: tensor<64x256xf32>,
             %row: tensor<1x256xf32>, %i: tensor<i32>) -> (tensor<8x256xf32>, tensor<64x256xf32>) {
  %rows = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<512x256xf32>, tensor<8x1xi32>) -> tensor<8x256xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %new = stablehlo.dynamic_update_slice %cache, %row, %i, %c0 : (tensor<64x256xf32>, tensor<1x256xf32>, tensor<i32>, tensor<i32>) -> tensor<64x256xf32>
  return %rows, %new : tensor<8x256xf32>, tensor<64x256xf32>
}
"""


def sharding(*dims):
    return TensorSharding(MESH, tuple(DimSharding(tuple(AxisRef(a) for a in d)) for d in dims),
                          mesh_name="mesh")


def ops(ctx, program=PROGRAM):
    module = ir.Module.parse(program, ctx)
    body = module.body.operations[0].regions[0].blocks[0]
    return module, {op.name: op for op in body.operations}


def test_a_gather_reads_the_rows_it_writes_not_its_whole_table(ctx):
    module, found = ops(ctx)
    gather = found["stablehlo.gather"]
    replicated_table = OpPlan([sharding([], []), sharding([], [])], [sharding([], [])])
    sharded_table = OpPlan([sharding([], ["model"]), sharding([], [])],
                           [sharding([], ["model"])])
    # 8 rows of 256 f32 read and written, and 8 ids: never the 512 KiB table.
    whole = compute_time(gather, replicated_table, MODEL)
    assert whole == MODEL.compute_time(2 * 8 * 256 * 4 + 8 * 4)
    # Sharding the table's columns shrinks only the rows each device reads.
    assert compute_time(gather, sharded_table, MODEL) == MODEL.compute_time(
        2 * 8 * 64 * 4 + 8 * 4)


def test_an_update_in_place_touches_the_update_not_the_buffer(ctx):
    module, found = ops(ctx)
    update = found["stablehlo.dynamic_update_slice"]
    plan = OpPlan([sharding([], []), sharding([], []), None, None], [sharding([], [])])
    # the 1x256 row and the two scalar indices, each read and written once
    assert compute_time(update, plan, MODEL) == MODEL.compute_time(2 * (256 * 4 + 4 + 4))


# A halo exchange against a gather, and a sort along a sharded dim: ranked by time.
RANKED = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%small: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
             %big: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
             %keys: tensor<64x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32>, tensor<256x1024xf32>, tensor<64x512xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %a = "stablehlo.reduce_window"(%small, %zero) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %b = "stablehlo.reduce_window"(%big, %zero) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<256x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
  %c = "stablehlo.sort"(%keys) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %lt = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<64x512xf32>) -> tensor<64x512xf32>
  return %a, %b, %c : tensor<8x16xf32>, tensor<256x1024xf32>, tensor<64x512xf32>
}
"""


def _plans(ctx, model):
    """{op name and operand shape: the plan insert-reshards' choice makes under model}"""
    from shardpy.ops.registry import RULES, local_entry
    from shardpy.partition.plan_cache import PlanCache
    from shardpy.partition.plan_choice import choose_plan
    from shardpy.sharding.state import ShardingState
    from functools import partial

    module = ir.Module.parse(RANKED, ctx)
    state = ShardingState(module.operation)
    cache = PlanCache(RULES, partial(choose_plan, model=model))
    func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
    out = {}
    for op in func.regions[0].blocks[0].operations:
        if op.name in ("stablehlo.reduce_window", "stablehlo.sort"):
            operands = list(op.operands)
            have = [state.of(v) for v in operands]
            results = [state.of(r) for r in op.results]
            _, rule = cache.rule(op, op.name, operands, list(op.results))
            entry = local_entry(op)
            combine = entry.combine(op) if entry is not None and entry.combine else None
            plan = choose_plan(op, rule, entry, combine, have, results, have[0], model)
            out[(op.name, tuple(operands[0].type.shape))] = plan
    return out


def _dim0(plan):
    return [a.name for a in plan.operands[0].dims[0].axes]


def test_small_halo_gathered_large_halo_exchanged_by_time(ctx):
    plans = _plans(ctx, MODEL)
    # 8x16: one all_gather (~60 us) beats two collective_permutes (~2 x 190 us).
    assert _dim0(plans[("stablehlo.reduce_window", (8, 16))]) == []
    # 256x1024: gathering 512 KiB costs more than exchanging two 4 KiB rows.
    assert _dim0(plans[("stablehlo.reduce_window", (256, 1024))]) == ["x"]


def test_without_a_model_bytes_rank_and_the_small_halo_is_exchanged(ctx):
    plans = _plans(ctx, None)
    assert _dim0(plans[("stablehlo.reduce_window", (8, 16))]) == ["x"]


def test_a_sort_costs_its_comparisons(ctx):
    module = ir.Module.parse(RANKED, ctx)
    func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
    sort = [op for op in func.regions[0].blocks[0].operations
            if op.name == "stablehlo.sort"][0]
    whole = OpPlan([sharding([], [])], [sharding([], [])])
    # 64 x 512 elements, log2(64) = 6 comparisons each, at the profile's compare rate
    assert compute_time(sort, whole, MODEL) == MODEL.compute_time(0, 0, 64 * 512 * 6)
    assert compute_time(sort, whole, MODEL) > MODEL.compute_time(2 * 2 * 64 * 512 * 4)


def test_a_large_sort_moves_its_axis_away_rather_than_sorting_whole(ctx):
    # Sorting 64 x 512 whole on each device (~20 ms at 1e7 compares/s) costs far more
    # than two all_to_alls moving "x" onto the other dim and back.
    plan = _plans(ctx, MODEL)[("stablehlo.sort", (64, 512))]
    assert _dim0(plan) == [] and [a.name for a in plan.operands[0].dims[1].axes] == ["x"]


def test_a_plans_time_counts_the_collectives_its_lowering_makes(ctx):
    # The 256x1024 reduce_window keeps "x" and exchanges one row each way: the time the
    # plan was ranked by (what shardpy-choose-shardings costs it at) is plan_time's
    # reshards and compute plus those collective_permutes, not plan_time alone.
    from shardpy.ops.registry import local_entry
    from shardpy.partition.plan_costs import plan_time
    from shardpy.sharding.state import ShardingState

    module = ir.Module.parse(RANKED, ctx)
    func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
    window = [op for op in func.regions[0].blocks[0].operations
              if op.name == "stablehlo.reduce_window"][1]
    plan = _plans(ctx, MODEL)[("stablehlo.reduce_window", (256, 1024))]
    have = ShardingState(module.operation).of(window.operands[0])
    exchanged = local_entry(window).exchange(window, plan.operands, plan.results)
    assert [kind for kind, _, moved in exchanged if moved > 0] == ["collective_permute"]
    alone = plan_time(window, [have, None], plan, [have], MODEL)
    assert plan.seconds == alone + sum(MODEL.time(kind, group, moved)
                                       for kind, group, moved in exchanged)
    assert _plans(ctx, None)[("stablehlo.reduce_window", (256, 1024))].seconds is None


# Ops of many kinds, each planned under every combination of a few shardings per value.
MEMO_PROGRAM = """
func.func @f(%x: tensor<8x16x32xf32>, %w: tensor<32x64xf32>, %ids: tensor<8x1xi32>,
             %t: tensor<64x32xf32>) -> (tensor<8x16x64xf32>, tensor<8x32xf32>, tensor<64x32xf32>) {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [2] x [0] : (tensor<8x16x32xf32>, tensor<32x64xf32>) -> tensor<8x16x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %g = "stablehlo.scatter"(%t, %ids, %s) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x32xf32>, tensor<8x1xi32>, tensor<8x32xf32>) -> tensor<64x32xf32>
  return %h, %s, %g : tensor<8x16x64xf32>, tensor<8x32xf32>, tensor<64x32xf32>
}
"""


def test_a_shared_memo_chooses_every_plan_as_choosing_afresh_does(ctx):
    """PlanMemo (what plans share within a pass) changes no answer: each op under every
    combination of three shardings per value, with one memo for all and with none."""
    from itertools import product

    from shardpy.ops.registry import RULES, local_entry
    from shardpy.partition.choice_program import candidates
    from shardpy.partition.plan_cache import PlanCache, PlanMemo
    from shardpy.partition.plan_choice import choose_plan

    module = ir.Module.parse(MEMO_PROGRAM, ctx)
    body = module.body.operations[0].regions[0].blocks[0]
    cache = PlanCache(RULES, None)
    memo = PlanMemo(ir_frozen=True)
    planned = 0
    for op in body.operations:
        if op.name not in ("stablehlo.dot_general", "stablehlo.reduce", "stablehlo.scatter"):
            continue
        values = [v for v in list(op.operands) + list(op.results) if v.type.rank > 0]
        options = [candidates(cache.intern(sharding(*[[]] * v.type.rank)),
                              tuple(v.type.shape), cache)[:3] for v in values]
        _, rule = cache.rule(op, op.name, list(op.operands), list(op.results))
        entry = local_entry(op)
        combine = entry.combine(op) if entry is not None and entry.combine else None
        for combo in product(*options):
            picked = iter(combo)
            have = [next(picked) if v.type.rank > 0 else None for v in op.operands]
            results = [next(picked) for _ in op.results]
            shared = choose_plan(op, rule, entry, combine, have, results, results[0], MODEL,
                                 memo=memo)
            fresh = choose_plan(op, rule, entry, combine, have, results, results[0], MODEL)
            assert (shared.operands, shared.results, shared.seconds) == (
                fresh.operands, fresh.results, fresh.seconds), (op.name, combo)
            planned += 1
    assert planned == 3 ** 3 + 3 ** 2 + 3 ** 4  # (dot, reduce, scatter: values of rank > 0)
    assert memo.found  # (and it was shared)


# A weight gradient of a tensor-parallel layer whose input arrives with its features on
# "model" (a patch embedding sharded on its output features): x [B, T, D] and the
# hidden gradient dh [B, T, H] both have "model" on their last dim; the result [D, H]
# is wanted with H on "model", as the weight is.
WEIGHT_GRAD = """
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @f(%x: tensor<16x256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>},
             %dh: tensor<16x256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>})
    -> tensor<256x1024xf32> {
  %g = stablehlo.dot_general %x, %dh, contracting_dims = [0, 1] x [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : (tensor<16x256x256xf32>, tensor<16x256x1024xf32>) -> tensor<256x1024xf32>
  return %g : tensor<256x1024xf32>
}
"""


def test_a_result_factor_the_results_shard_is_placed_first(ctx):
    """Keeping the result where it is means its sharded factors keep their axes: H keeps
    "model" and x's D is gathered (1.5 MiB per device). The factor the result leaves
    whole (D) used to be placed first, taking x's "model": then the 4x larger dh was
    gathered on H and the result moved by an all_to_all (a ViT block's gradient ran
    1.6x jax.jit's step), and keeping the operands gave the same placement, so nothing
    better was weighed."""
    from functools import partial

    from shardpy.ops.registry import RULES, local_entry
    from shardpy.partition.plan_cache import PlanCache
    from shardpy.partition.plan_choice import choose_plan
    from shardpy.sharding.state import ShardingState

    module = ir.Module.parse(WEIGHT_GRAD, ctx)
    state = ShardingState(module.operation)
    func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
    dot = [op for op in func.regions[0].blocks[0].operations
           if op.name == "stablehlo.dot_general"][0]
    cache = PlanCache(RULES, partial(choose_plan, model=MODEL))
    operands = list(dot.operands)
    _, rule = cache.rule(dot, dot.name, operands, list(dot.results))
    entry = local_entry(dot)
    have = [state.of(v) for v in operands]
    want = [state.of(r) for r in dot.results]
    plan = choose_plan(dot, rule, entry, entry.combine(dot) if entry.combine else None,
                       have, want, want[0], MODEL)
    layouts = [[[a.name for a in d.axes] for d in s.dims] for s in plan.operands]
    assert layouts == [[["data"], [], []], [["data"], [], ["model"]]]
    assert [[a.name for a in d.axes] for d in plan.results[0].dims] == [[], ["model"]]


# Contractions: a dot's multiply-adds at the matmul rate, a convolution's at the rate the
# profile measured for its shape.
CONTRACTIONS = """
func.func @f(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %img: tensor<8x1x16x64xf32>,
             %k: tensor<1x1x3x5xf32>) -> (tensor<64x32xf32>, tensor<8x1x16x64xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
  %c = stablehlo.convolution(%img, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [2, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x1x16x64xf32>, tensor<1x1x3x5xf32>) -> tensor<8x1x16x64xf32>
  return %d, %c : tensor<64x32xf32>, tensor<8x1x16x64xf32>
}
"""


def test_a_dot_costs_its_flops_at_the_matmul_rate(ctx):
    module, found = ops(ctx, CONTRACTIONS)
    dot = found["stablehlo.dot_general"]
    # rows on "data", the contracted dim on "model": 32 x 32 results of 32 terms each
    plan = OpPlan([sharding(["data"], ["model"]), sharding(["model"], [])],
                  [sharding(["data"], [])])
    assert compute_time(dot, plan, MODEL) == MODEL.compute_time(
        (32 * 32 + 32 * 32 + 32 * 32) * 4, 2.0 * 32 * 32 * 32)


def test_a_convolution_costs_its_multiply_adds_at_the_rate_for_its_shape(ctx):
    module, found = ops(ctx, CONTRACTIONS)
    conv = found["stablehlo.convolution"]
    whole = OpPlan([sharding([], [], [], []), sharding([], [], [], [])],
                   [sharding([], [], [], [])])
    quarter = OpPlan([sharding(["data"], [], [], ["model"]), sharding([], [], [], [])],
                     [sharding(["data"], [], [], ["model"])])
    # 1 output feature, 1 x 3 x 5 = 15 multiply-adds per output element: XLA:CPU's slow
    # shape, so the multiply-adds, not the bytes, bound it.
    seconds = compute_time(conv, whole, MODEL)
    assert seconds == MODEL.convolution_time(8 * 16 * 64 * 15, 1, 15)
    assert seconds > 10 * MODEL.compute_time(2 * 8 * 16 * 64 * 4 + 15 * 4)
    assert compute_time(conv, quarter, MODEL) == MODEL.convolution_time(4 * 16 * 16 * 15, 1, 15)


def test_equal_shardings_made_apart_cost_one_reshard_plan(ctx, monkeypatch):
    # _move_cost remembers a move by its shardings' identities, and behind that by their
    # values: the choice makes equal shardings as distinct objects, which must not plan
    # the same reshard again, nor cost it differently.
    from shardpy.partition import plan_costs

    value_type = ir.Type.parse("tensor<8x64x256xf32>", ctx)
    planned = []
    real = plan_costs._reshard_plan
    monkeypatch.setattr(plan_costs, "_reshard_plan",
                        lambda *args: planned.append(args) or real(*args))
    plan_costs._MOVE_COSTS.clear()
    plan_costs._MOVE_COSTS_BY_VALUE.clear()
    first = plan_costs._move_cost(sharding(["data"], [], []), sharding([], [], ["model"]),
                                  value_type, MODEL)
    again = plan_costs._move_cost(sharding(["data"], [], []), sharding([], [], ["model"]),
                                  value_type, MODEL)
    other = plan_costs._move_cost(sharding(["data"], [], []), sharding([], [], []),
                                  value_type, MODEL)  # a gather, not an all_to_all
    assert len(planned) == 2  # the second pair, equal to the first, was not planned
    assert first == again and first[0] > 0 and first[1] > 0
    assert other != first


def test_a_scatter_off_dim0_costs_xla_cpus_transposes_on_cpu_only(ctx):
    # ir/cpu_collective_dims.py moves a reduce_scatter along a dim with a larger dim
    # before it to dim 0: two transposes, which XLA:CPU copies. A ViT whose features were
    # scattered that way ran at 0.94-0.97x jax.jit's step; charged for them, 0.91-0.92x.
    from dataclasses import replace

    from shardpy.partition import plan_costs

    value_type = ir.Type.parse("tensor<1024x256xf32>", ctx)
    partial = replace(sharding([], []), unreduced=(AxisRef("model"),))
    features = sharding([], ["model"])  # along dim 1, 1024 rows before it
    rows = sharding(["model"], [])  # along dim 0: no transpose
    copies = MODEL.compute_time(2.0 * (1024 * 256 * 4 + 1024 * 64 * 4))
    plan_costs._MOVE_COSTS.clear()
    plan_costs._MOVE_COSTS_BY_VALUE.clear()
    plan = plan_costs._reshard_plan(partial, features, value_type, MODEL)
    assert [s.kind for s in plan.steps] == ["reduce_scatter"]
    assert plan_costs.scatter_copies_time(plan, partial, features, value_type,
                                          MODEL) == copies
    assert plan_costs.reshard_time(partial, features, value_type, MODEL) == (
        plan.time(MODEL) + copies)
    by_rows = plan_costs._reshard_plan(partial, rows, value_type, MODEL)
    assert plan_costs.scatter_copies_time(by_rows, partial, rows, value_type, MODEL) == 0
    # a dim neither side shards still counts as a dim before it (the planner drops it)
    batched = ir.Type.parse("tensor<4x1024x256xf32>", ctx)
    b_partial = replace(sharding([], [], []), unreduced=(AxisRef("model"),))
    b_rows = sharding([], ["model"], [])
    b_plan = plan_costs._reshard_plan(b_partial, b_rows, batched, MODEL)
    assert plan_costs.scatter_copies_time(b_plan, b_partial, b_rows, batched, MODEL) == (
        MODEL.compute_time(2.0 * 4 * (1024 * 256 * 4 + 256 * 256 * 4)))
    elsewhere = replace(MODEL, platform="gpu")
    assert plan_costs.scatter_copies_time(plan, partial, features, value_type,
                                          elsewhere) == 0
