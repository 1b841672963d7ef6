"""What a plan costs: the estimates shardpy-insert-reshards ranks placements by.

  time      plan_time: the reshards into a plan's operand shardings and out of its
            results (reshard_time: the reshard planner's collectives, each at latency +
            bytes / bandwidth by the platform's CollectiveTimeModel, and on cpu the
            copies around a scatter off dim 0: scatter_copies_time), plus the op's
            own compute on its local shards (compute_time)
  bytes     reshard_cost: bytes per device the reshards move (the planner's cost)
  work      elements per device the op computes on: the tie-break

plan_choice ranks every placement it weighs by these; the whole-program choice
(choose_shardings) reads the same numbers.
"""
from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from jaxlib.mlir import ir

from ..ir.cpu_collective_dims import off_dim0
from ..ir.types import element_bytes
from ..ops.registry import (COMPARE_COUNTS, FUSED_OPS, MULTIPLY_ADDS, READS_RESULT_ONLY,
                            UPDATES_IN_PLACE)
from ..sharding.op_rule import shape_of
from .choice_calls import hoisted
from .layouts import from_source, has_uses, plain
from .plan_cache import PlanMemo, same_layout
from .reshard_planner import costed_pair, kept_dims, model_key, plan_reshard
from .reshard_steps import ReshardError
from .unreduced import LINEAR_ALL_OPERANDS, LINEAR_SINGLE_OPERAND

if TYPE_CHECKING:
    from .plan_choice import OpPlan


def work(op, plan: OpPlan) -> int:
    """Elements per device the op computes on (operands' local sizes): the tie-break
    between placements that move as many bytes. Ops that only move data (concatenate,
    pad...) count none: there the placement with fewer collectives (the first one
    weighed) wins the tie."""
    if op.name in LINEAR_ALL_OPERANDS or op.name in LINEAR_SINGLE_OPERAND or \
            op.name == "stablehlo.pad":
        return 0
    total = 0
    for value, sharding in zip(op.operands, plan.operands):
        shape = value.type.shape if isinstance(value.type, ir.RankedTensorType) else ()
        local = sharding.local_shape(tuple(shape)) if sharding is not None else shape
        total += prod(local)
    return total


def reshard_cost(op, have_operands, want_operands, produced, wanted) -> float:
    """Bytes per device the reshards around `op` would move (planner's cost model)."""
    total = 0.0
    moves, shares = _moves(op, have_operands, want_operands, produced, wanted)
    for i, (value, have, want) in enumerate(moves):
        try:
            plan = _reshard_plan(have, want, value.type)
        except ReshardError:
            total += float("inf")
            continue
        if plan is not None:
            total += plan.cost * (shares[i] if shares else 1.0)
    return total


def _moves(op, have_operands, want_operands, produced, wanted, io=None):
    """((value, have, want) of each reshard around `op`, their shares or None): operands
    into what the plan wants (an iota or constant is remade instead), results from what
    the op produces into what their users want (unused results: none). A share is the
    part of a reshard's cost paid each time the op runs: 1 / the trip count of a loop
    its operand is invariant in (XLA hoists the reshard), else 1; None: all 1 (the
    common case, kept cheap: this runs for every placement weighed). `io`: op_io's
    answer."""
    operands, results, _, made, used, hoisted_by = op_io(op) if io is None else io
    pairs = [p for p, source in zip(zip(operands, have_operands, want_operands), made)
             if not (source and p[2] is not None and not p[2].unreduced)]
    shares = None
    if hoisted_by is not None:
        shares = [1.0 / trips for p, source, trips in zip(
            zip(operands, have_operands, want_operands), made, hoisted_by)
            if not (source and p[2] is not None and not p[2].unreduced)]
    pairs += [p for p, use in zip(zip(results, produced, wanted), used) if use]
    if shares is not None:
        shares += [1.0] * (len(pairs) - len(shares))
    return pairs, shares


def op_io(op, memo: PlanMemo | None = None) -> tuple:
    """(operands, results, their shapes, operands an iota or constant makes, results
    someone reads, per operand the trip count of a loop it is invariant in or 1, None
    where all are 1: choice_calls.hoisted) of `op`; read once per op where the memo's IR does not change
    (`ir_frozen`: the whole-program choice), else each time (insert-reshards rewires
    operands and uses as it goes). Without a memo, no loop is looked at."""
    frozen = memo is not None and memo.ir_frozen
    key = ("io", id(op))
    found = memo.found.get(key) if frozen else None
    if found is None:
        operands, results = list(op.operands), list(op.results)
        found = (operands, results, [shape_of(v.type) for v in operands + results],
                 [from_source(v) for v in operands], [has_uses(r) for r in results],
                 hoisted(op, operands, memo))
        if frozen:
            memo.keep(key, op, found)
    return found


# (id(have), id(want), value type, id(model)) -> (have, want, model, (bytes, seconds)
# or None where no plan exists): rank() asks for the same moves for every
# candidate placement, and the planner's own memo would hash the shardings whole.
# Behind it, the same by the shardings' values: the choice makes equal shardings as
# distinct objects (a third of the pairs it costs on a GPT step are new by value).
_MOVE_COSTS: dict = {}
_MOVE_COSTS_BY_VALUE: dict = {}
_MISSING = object()


def _move_cost(have, want, value_type, model):
    """(bytes per device, seconds by `model`) of one reshard; None where no plan exists."""
    key = (id(have), id(want), value_type, id(model))  # (types are uniqued)
    found = _MOVE_COSTS.get(key)
    if found is not None and found[0] is have and found[1] is want and found[2] is model:
        return found[3]
    by_value = (have, want, value_type, model_key(model))
    cost = _MOVE_COSTS_BY_VALUE.get(by_value, _MISSING)
    if cost is _MISSING:
        try:
            plan = _reshard_plan(have, want, value_type, model)
            cost = ((plan.cost, plan.time(model) + scatter_copies_time(
                plan, have, want, value_type, model)) if plan is not None else (0.0, 0.0))
        except ReshardError:
            cost = None
        if len(_MOVE_COSTS_BY_VALUE) > 100_000:
            _MOVE_COSTS_BY_VALUE.clear()
        _MOVE_COSTS_BY_VALUE[by_value] = cost
    if len(_MOVE_COSTS) > 100_000:
        _MOVE_COSTS.clear()
    _MOVE_COSTS[key] = (have, want, model, cost)  # (kept alive: their ids stay theirs)
    return cost


def _reshard_plan(have, want, value_type, model=None):
    """The reshard planner's plan from `have` to `want` for a value of `value_type` (the
    fastest by `model`, else the fewest bytes), or None where nothing moves (None on
    either side, or the same layout); a partial value wanted unannotated is summed.
    Raises ReshardError where no plan exists. Only its cost and time are read here: it is
    planned without the dims neither side shards (costed_pair), so its steps may be of a
    smaller rank than the value."""
    pair = _planned_pair(have, want)
    if pair is None:
        return None
    return plan_reshard(*costed_pair(*pair, tuple(value_type.shape),
                                     element_bytes(value_type.element_type)),
                        model=model)


def _planned_pair(have, want):
    """(from, to) as a move is planned between them, plain layouts; None where nothing
    moves (as _reshard_plan says)."""
    if want is None and have is not None and have.unreduced:
        want = plain(have, have.dims)  # partial values are summed where unannotated
    if want is None or have is None or same_layout(have, want):
        return None
    return plain(have, have.dims, have.unreduced), plain(want, want.dims, want.unreduced)


def scatter_copies_time(plan, have, want, value_type, model) -> float:
    """Seconds XLA:CPU spends copying around the reduce_scatters of `plan` (from `have`
    to `want`, as _reshard_plan planned it) that scatter along a dim with a
    larger-than-1 dim before it: ir/cpu_collective_dims.py moves each to dim 0 with a
    transpose of its operand before it and of its result after it, and XLA:CPU makes
    both copies (the operand is a fresh partial sum, a dot's or a reduction's, in row
    major). They are charged as bytes read and written at the profile's memory rate.
    Only on the cpu platform, the one that rewrite runs for.

    Gathers are not charged: their result mostly feeds a dot, which absorbs the
    transpose (an FSDP weight gathered along dim 1). On the model benchmark, charging
    them too moved the FSDP programs' plans onto slower ones (gpt_fsdp_8l 0.88x ->
    1.03x jax.jit's step) while charging scatters alone left them unchanged.

    e.g. partial over "model" -> [{}, {"model"}] of a 1024x256 f32 on the (2, 4) mesh:
    one reduce_scatter along dim 1 of the 1 MiB operand, 2 x (1 MiB + 256 KiB) copied."""
    if model is None or model.platform != "cpu":
        return 0.0
    src, dst = _planned_pair(have, want)
    shape = tuple(value_type.shape)
    kept = kept_dims(src, dst)
    before, _, pair_shape, _ = costed_pair(src, dst, shape, 1)
    whole = prod(shape) * element_bytes(value_type.element_type)
    total = 0.0
    for step in plan.steps:
        if step.kind == "reduce_scatter":
            local = before.local_shape(pair_shape)
            dim = min(d for d, axes in enumerate(step.dim_axes) if axes)
            # the buffer's local shape in the value's own dims: the dims the pair
            # dropped are unsharded, whole on every device
            full_local = list(shape)
            for d, n in zip(kept, local):
                full_local[d] = n
            if off_dim0(full_local, kept[dim]):
                operand = whole * prod(local) / max(prod(pair_shape), 1)
                result = operand / max(step.group, 1)
                total += model.compute_time(2.0 * (operand + result))
        before = step.result
    return total


def reshard_time(have, want, value_type, model) -> float:
    """Seconds the reshard of one value from `have` to `want` takes by `model` (its
    collectives and scatter_copies_time; None on either side: nothing to move, or
    partial sums summed; inf where no plan exists), remembered as _move_cost
    remembers it."""
    found = _move_cost(have, want, value_type, model)
    return float("inf") if found is None else found[1]


def plan_time(op, have_operands, plan: OpPlan, wanted, model) -> float:
    """Estimated seconds of `op` computed by `plan` between values sharded as
    `have_operands` and `wanted` (its results): the reshards into the plan's operand
    shardings (an iota or constant is remade instead), the op's own compute on its
    local shards (bytes read and written; a dot's flops), and the
    reshards from what it produces to what its users want."""
    total = 0.0
    moves, shares = _moves(op, have_operands, plan.operands, plan.results, wanted)
    for i, (value, have, want) in enumerate(moves):
        total += reshard_time(have, want, value.type, model) * (
            shares[i] if shares else 1.0)
    return total + compute_time(op, plan, model)


def compute_time(op, plan: OpPlan, model) -> float:
    """Seconds one device spends on `op` under `plan`: its local operands read and
    results written, and for a contraction (dot_general, convolution: MULTIPLY_ADDS) its
    multiply-adds, whichever takes longer. Ops XLA fuses into their
    neighbours (FUSED_OPS: elementwise math, layout changes) count nothing: a chain of
    them is one loop over memory that the ops around it already read or write. An op
    that reads only what it writes (a gather's rows: READS_RESULT_ONLY) counts its
    results twice and its indices, not its whole operand; one that updates in place
    (UPDATES_IN_PLACE) counts its updates twice and its indices, not the buffer. A sort
    or top-k (COMPARE_COUNTS) counts its comparisons at the profile's compare rate."""
    name = op.name
    if name in FUSED_OPS:
        return 0.0
    operands = _local_shapes(op.operands, plan.operands)
    results = _local_shapes(op.results, plan.results)
    touched = 0.0
    skip_operands = 0  # leading operands not read whole
    weight = (1.0, 1.0)  # (operands, results)
    if name in READS_RESULT_ONLY:
        skip_operands, weight = 1, (1.0, 2.0)
    elif name in UPDATES_IN_PLACE:
        skip_operands, weight = len(op.results), (2.0, 0.0)
    for k, (values, shapes) in enumerate(((op.operands, operands), (op.results, results))):
        for i, (value, shape) in enumerate(zip(values, shapes)):
            if (k == 0 and i < skip_operands) or shape is None:
                continue
            touched += weight[k] * prod(shape) * element_bytes(value.type.element_type)
    flops = contraction = 0.0
    multiply_adds = MULTIPLY_ADDS.get(name)
    if multiply_adds is not None and results and None not in operands + results:
        work = multiply_adds(op, operands, results)
        if work.kind == "convolution":
            contraction = model.convolution_time(work.count, work.features,
                                                 work.contraction)
        else:
            flops = 2.0 * work.count
    compares = 0.0
    count = COMPARE_COUNTS.get(name)
    if count is not None:
        compares = count(op, [() if shape is None else shape for shape in operands])
    return max(model.compute_time(touched, flops, compares), contraction)


def _local_shapes(values, shardings) -> list[tuple[int, ...] | None]:
    """Each value's shape on one device under its sharding (None: not a ranked tensor,
    a token)."""
    shapes = []
    for value, sharding in zip(values, shardings):
        value_type = value.type
        if not isinstance(value_type, ir.RankedTensorType):
            shapes.append(None)
            continue
        shape = tuple(value_type.shape)
        shapes.append(sharding.local_shape(shape) if sharding is not None else shape)
    return shapes
