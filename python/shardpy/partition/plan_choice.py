"""How shardpy-insert-reshards computes one op on shards: its plan.

A plan is one sharding per operand (what the op needs: operands that differ get an
sdy.reshard) and per result (what the local computation produces, `unreduced` axes
included). It comes from one choice of axes per factor of the op's sharding rule
(`factor axes`), and choose_plan weighs several choices by the time the reshards
around the op and its own compute would take (the platform's CollectiveTimeModel),
then by the bytes per device the reshards would move (the reshard planner's cost
model):

  1. keep the results where they are: a factor takes the results' axes, else the most
     sharded operand's (slicing the others is free);
  2. keep the operands where they are (e.g. a sharded contraction reduce-scattered
     into place instead of moving both operands);
  3. each with reduction factors sharded (partial sums) and, where LocalOp.whole_too,
     whole; each with permutation factors (padded, sliced, reversed, windowed dims)
     whole, and sharded where the op's lowering exchanges halos (LocalOp.exchange:
     the collectives it makes count too, each by its kind);
  4. need-replication factors (a sorted dim, a top-k dim) an operand has sharded:
     their axes moved onto another factor of the op (an all_to_all in, and one back
     where the result wants it), or, where LocalOp.split allows (top_k), kept sharded
     on the operands with the combining left to the lowering (its all_gather counted).

Candidates are ranked by estimated time (plan_time with the platform's
CollectiveTimeModel: each reshard's collectives at latency + bytes / bandwidth, the
op's own compute on its local shards, an exchange's collective_permutes), then by the
bytes moved, then by the work per device, then the placement without an exchange
(fewer collectives). Without a model (model=None) bytes come first. Times are compared
in whole nanoseconds (reshard_planner.nanoseconds).
Ops with no way to compute on shards get the fallback (fallback.py). Partial sums
carried through linear ops: unreduced.py.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import gcd, prod

from jaxlib.mlir import ir

from ..ir.types import element_bytes
from ..lowering.padding import unevenly_shardable
from ..sharding import axis_algebra as aa
from ..sharding.factors import FactorSharding, TensorFactors, project, unproject
from ..sharding.model import AxisRef, TensorSharding
from ..sharding.op_rule import FactorKind, OpRule
from .fallback import computed_on_shards, replicated_operands_and_results
from .layouts import mesh_order, plain
from .plan_cache import PlanMemo
from .plan_costs import _move_cost, _moves, compute_time, op_io, reshard_cost, work
from .reshard_planner import nanoseconds
from .unreduced import carried_unreduced


@dataclass
class OpPlan:
    operands: list[TensorSharding | None]  # required (None: leave as is)
    results: list[TensorSharding]          # what the local computation produces
    fallback: bool = False
    # What applying the plan takes, decided once per plan (its key holds the shardings
    # the op has by identity): operands to reshard, whether the results' shardings
    # change, results to reshard for their users.
    moved_operands: tuple[int, ...] = ()
    results_changed: bool = False
    moved_results: tuple[int, ...] = ()
    # Estimated seconds by the model that chose it (rank's time: the reshards around
    # the op, its compute, the collectives its lowering makes itself); None without a
    # model or for the fallback. The whole-program choice reads it (plan_time would cost
    # the plan again, without the op's own collectives).
    seconds: float | None = None


def choose_plan(op, rule: OpRule | None, entry, combine: str | None, operand_shardings,
                result_shardings, template: TensorSharding, model=None,
                weighed: list | None = None, memo: PlanMemo | None = None) -> OpPlan:
    """The cheapest placement of `op` (its rule, its LOCAL_OPS entry, how its reductions
    combine) given its operands' and results' current shardings, on `template`'s mesh:
    the fastest by `model` (a CollectiveTimeModel), then the fewest bytes moved.
    `weighed` (--explain): gets every (rank key, placement) compared. `memo`: the
    pass's PlanMemo (parts shared between plans: the answer is the same without)."""
    if not computed_on_shards(rule, entry):
        return OpPlan(*replicated_operands_and_results(op, template), fallback=True)
    rule = _one_sided_factors_replicated(rule, op)
    memo = PlanMemo() if memo is None else memo
    found = memo.found
    sizes = template.mesh.axes
    tensors = []
    for i, (m, s) in enumerate(zip(rule.operands + rule.results,
                                   operand_shardings + result_shardings)):
        key = ("project", id(rule), i, id(s), sizes)
        t = found.get(key)
        if t is None:
            t = None if s is None else memo.keep(key, (rule, s), project(
                m, s, rule.factor_sizes, sizes))
        tensors.append(t)
    io = op_io(op, memo)
    num_operands = len(io[0])
    # Candidate placements of the factors: keep the results where they are (their
    # factors first, or the factors their layout shards first: a weight gradient whose
    # input arrives sharded like the weight's other dim), or keep the operands where
    # they are (e.g. a sharded contraction reduce-scattered into place instead of
    # moving both operands); the faster one (rank).
    # Windowed factors (permutations: padded, sliced, reversed, windowed dims) may
    # stay sharded where the op's lowering exchanges what shards need between
    # devices (LOCAL_OPS' `exchange`: the bytes its collective_permutes move, each
    # counted whole, as stats.py does); each placement is also tried with them
    # whole (the planner's gathers). Ranked by time, bytes, work per device, then
    # the placement without an exchange (fewer collectives): rank().
    permutation = found.get(("permutation", id(rule)))
    if permutation is None:
        permutation = memo.keep(("permutation", id(rule)), rule,
                                frozenset(rule.factors_of(FactorKind.PERMUTATION)))
    exchange = entry is not None and entry.permutation
    options = [permutation]
    if exchange:
        options = [frozenset(), entry.windowed(op, rule) if entry.windowed is not None
                   else permutation]
    shapes = io[2]
    best = None
    bases = []
    reductions = [("results", combine is not None), ("result-layout", combine is not None),
                  ("operands", combine is not None)]
    if combine is not None and entry.whole_too:
        reductions.append(("results", False))  # reduction factors whole
    padding = entry is not None and entry.padding is not None
    uneven = found.get(("uneven", id(rule), padding))
    if uneven is None:
        uneven = memo.keep(("uneven", id(rule), padding), rule,
                           unevenly_shardable(rule, padding))
    # Placements already ranked (several ways to choose often give the same one): the
    # same key again, and ties keep the first.
    ranked = set()
    for whole in options:
        by_results = None
        for prefer, reduction_ok in reductions:
            # The factors' candidate axes, once per tensors (prefer="operands" reads
            # only the operands' factor shardings; the other prefers agree), then their
            # assignment, once per candidates: combinations of the whole-program choice
            # that differ in a value this op's candidates do not read share it.
            by_operands = prefer == "operands"
            key = ("candidates", id(rule), sizes, by_operands, tuple(map(
                id, tensors[:num_operands] if by_operands else tensors)))
            candidates = found.get(key)
            if candidates is None:
                candidates = memo.keep(key, (rule, tensors), factor_candidates(
                    rule, tensors, num_operands, sizes, prefer))
            key = ("assign", id(rule), id(shapes), id(uneven), sizes, prefer, reduction_ok,
                   whole, candidates)
            factor_axes = found.get(key)
            if factor_axes is None:
                factor_axes = memo.keep(key, (rule, shapes, uneven), assign_factor_axes(
                    rule, *candidates, sizes, reduction_ok, whole, prefer, shapes, uneven))
            if prefer == "results":
                by_results = factor_axes
            elif prefer == "result-layout" and factor_axes == by_results:
                continue  # (most ops: the same placement, nothing more to weigh)
            if combine == "select-pair":
                factor_axes = _one_ordered_reduction(rule, factor_axes, sizes)
            if whole is options[-1]:
                bases.append(factor_axes)  # windowed factors whole
            candidate = _placed(memo, op, rule, factor_axes, operand_shardings, template,
                                combine, entry)
            moved = ()
            if exchange and not whole and entry.exchange is not None:
                moved = entry.exchange(op, candidate.operands, candidate.results)
                if moved is None:
                    continue  # the lowering cannot compute these shards
            if _seen(ranked, candidate, moved) and weighed is None:
                continue
            key, seconds = _ranked(op, candidate, operand_shardings, result_shardings,
                                   model, moved, memo=memo, io=io)
            if weighed is not None:
                weighed.append((key, candidate))
            if best is None or key < best[0]:
                best = (key, candidate, seconds)
    # Need-replication factors an operand has sharded: their axes moved onto another
    # factor (an all_to_all rather than an all_gather), or kept sharded where the op
    # combines per-shard results itself (LocalOp.split). Taken when they move fewer
    # bytes, or as many but leave less to compute per device.
    for factor_axes in bases:
        for moved in moved_replicated_axes(rule, tensors, num_operands, factor_axes,
                                           sizes, uneven):
            candidate = _placed(memo, op, rule, moved, operand_shardings, template,
                                combine, entry)
            if _seen(ranked, candidate, ()) and weighed is None:
                continue
            key, seconds = _ranked(op, candidate, operand_shardings, result_shardings,
                                   model, memo=memo, io=io)
            if weighed is not None:
                weighed.append((key, candidate))
            if key < best[0]:
                best = (key, candidate, seconds)
        if entry is not None and entry.split is not None:
            for candidate, internal, shards in split_placements(
                    op, rule, entry, tensors, num_operands, factor_axes, template):
                key, seconds = _ranked(op, candidate, operand_shardings,
                                       result_shardings, model,
                                       (("all_gather", shards, internal),),
                                       exchanges=False, memo=memo, io=io)
                if weighed is not None:
                    weighed.append((key, candidate))
                if key < best[0]:
                    best = (key, candidate, seconds)
    best[1].seconds = best[2]
    return best[1]


def rank(op, candidate: OpPlan, operand_shardings, result_shardings, model,
         internal: tuple = (), exchanges: bool = True) -> tuple:
    """A placement's sort key: (estimated nanoseconds, bytes moved, work per device,
    whether it exchanges). `internal`: the collectives the op's lowering makes itself,
    (kind, group size, bytes per device) each (a halo exchange's collective_permutes, a
    scan's all_gather of totals, a split top-k's all_gather), counted in both time and
    bytes. Without a model, bytes first."""
    return _ranked(op, candidate, operand_shardings, result_shardings, model, internal,
                   exchanges)[0]


def _ranked(op, candidate: OpPlan, operand_shardings, result_shardings, model,
            internal: tuple = (), exchanges: bool = True,
            memo: PlanMemo | None = None, io: tuple | None = None
            ) -> tuple[tuple, float | None]:
    """(rank's key, the estimated seconds it rounds; None without a model)."""
    extra = sum(moved for _, _, moved in internal)
    flag = exchanges and extra > 0
    memo = PlanMemo() if memo is None else memo
    io = op_io(op, memo) if io is None else io
    # The placement's own parts (work per device, compute time): once per placement.
    key = ("work", id(op), id(model), tuple(map(id, candidate.operands)),
           tuple(map(id, candidate.results)))
    own = memo.found.get(key)
    if own is None:
        own = memo.keep(key, (op, model, tuple(candidate.operands),
                              tuple(candidate.results)), (
            work(op, candidate), compute_time(op, candidate, model) if model else 0.0))
    if model is None:
        cost = extra + reshard_cost(op, operand_shardings, candidate.operands,
                                    candidate.results, result_shardings)
        return (cost, own[0], flag), None
    # One plan per reshard for both its bytes and its time (reshard_cost's and
    # plan_time's pairs).
    moved = seconds = 0.0
    moves, shares = _moves(op, operand_shardings, candidate.operands, candidate.results,
                           result_shardings, io)
    for i, (value, have, want) in enumerate(moves):
        found = _move_cost(have, want, value.type, model)
        if found is None:
            inf = float("inf")
            return (inf, inf, own[0], flag), inf
        if shares is None:
            moved += found[0]
            seconds += found[1]
        else:  # a reshard XLA hoists out of a loop: paid once in its trips
            moved += shares[i] * found[0]
            seconds += shares[i] * found[1]
    seconds += own[1]
    for kind, group, moved_by_op in internal:
        seconds += model.time(kind, max(group, 2), moved_by_op)
    return (nanoseconds(seconds), extra + moved, own[0], flag), seconds


def _seen(ranked: set, candidate: OpPlan, extra: tuple) -> bool:
    """Has this placement (its shardings by identity, the op's own collectives) been
    ranked already? Adds it if not."""
    key = (tuple(map(id, candidate.operands)), tuple(map(id, candidate.results)), extra)
    if key in ranked:
        return True
    ranked.add(key)
    return False


def _placed(memo: PlanMemo, op, rule, factor_axes, operand_shardings, template,
            combine: str | None, entry) -> OpPlan:
    """placement(...), once per op, factor axes and mesh (and operand shardings where
    one is partial: what a linear op carries through), as a new OpPlan."""
    partial_in = any(s is not None and s.unreduced for s in operand_shardings)
    key = ("place", id(op), id(rule), combine, id(template.mesh), template.mesh_name,
           tuple(map(tuple, factor_axes)),
           tuple(map(id, operand_shardings)) if partial_in else None)
    found = memo.found.get(key)
    if found is None:
        plan = placement(op, rule, factor_axes, operand_shardings, template, combine, entry)
        found = memo.keep(key, (op, rule, template, tuple(operand_shardings)),
                          (tuple(plan.operands), tuple(plan.results)))
    return OpPlan(list(found[0]), list(found[1]))


def split_placements(op, rule, entry, tensors, num_operands, factor_axes, template):
    """Placements keeping a need-replication factor sharded on the operands (as the
    most sharded operand has it), results whole on it, with the bytes per device the
    lowering's own all_gather of the per-shard results moves and its group size."""
    sizes = template.mesh.axes
    used = [a for axes in factor_axes for a in axes]
    for f, kind in enumerate(rule.kinds):
        if kind is not FactorKind.NEED_REPLICATION:
            continue
        axes = []
        for t in tensors[:num_operands]:
            fs = t.factors.get(f) if t is not None else None
            if fs is not None and aa.axes_size(fs.axes, sizes) > aa.axes_size(axes, sizes):
                axes = list(fs.axes)
        kept = []
        for ref in axes:
            if any(aa.conflicts(ref, u, sizes) for u in used):
                break
            kept.append(ref)
        shards = aa.axes_size(kept, sizes)
        if shards <= 1 or not entry.split(op, f, shards):
            continue
        split = [list(a) for a in factor_axes]
        split[f] = kept
        operands = [_sharding_from_factors(m, rule, split, template, sizes)
                    for m in rule.operands]
        results = [_sharding_from_factors(m, rule, factor_axes, template, sizes)
                   for m in rule.results]
        internal = 0.0
        for result, sharding in zip(op.results, results):
            local = sharding.local_shape(tuple(result.type.shape))
            internal += prod(local) * element_bytes(result.type.element_type) * (
                shards - 1)
        yield OpPlan(operands, results), internal, shards


def placement(op, rule, factor_axes, operand_shardings, template, combine: str | None,
              entry=None) -> OpPlan:
    """Operand and result shardings for one choice of factor axes."""
    sizes = template.mesh.axes
    operands = [_sharding_from_factors(mapping, rule, factor_axes, template, sizes)
                for mapping in rule.operands]
    # Partial sums: the op's own sharded reduction factors, plus partial operands that
    # a linear op carries through.
    partial: list[AxisRef] = []
    if combine == "sum":
        for f, kind in enumerate(rule.kinds):
            if kind is FactorKind.REDUCTION:
                partial += factor_axes[f]
    carried = carried_unreduced(op, operand_shardings, operands)
    if carried:
        operands = [plain(o, o.dims, mesh_order(carried_i, template)) if o is not None
                    else o for o, carried_i in zip(operands, carried[1])]
        partial += [a for a in carried[0] if a not in partial]
    if combine == "sum" and partial and entry is not None and entry.counted_once:
        # Operands that pass into the partial result as they are (a scatter-add's
        # initial value): counted once, on the first device along the partial axes.
        for i in entry.counted_once(op):
            o = operands[i]
            used = {a for d in o.dims for a in d.axes}
            keep = [a for a in partial if a not in used]
            operands[i] = plain(o, o.dims, mesh_order(
                list(o.unreduced) + [a for a in keep if a not in o.unreduced],
                template))
    results = []
    for mapping in rule.results:
        result = _sharding_from_factors(mapping, rule, factor_axes, template, sizes)
        used = {a for d in result.dims for a in d.axes}
        keep = [a for a in partial if a not in used]
        results.append(plain(result, result.dims, mesh_order(keep, template)))
    return OpPlan(operands, results)


def factor_candidates(rule: OpRule, tensors: list[TensorFactors | None], num_operands: int,
                      sizes, prefer: str) -> tuple[tuple, tuple]:
    """(per factor the axes it would take, per factor whether they are a result's): the
    first half of choosing factor axes (assign_factor_axes), which reads the tensors
    (their factor shardings, rule order: operands, then results). prefer="operands": the
    most sharded operand's (the first of the largest); else the first result that
    shards the factor, or the most sharded operand's. Every prefer other than
    "operands" gives the same answer."""
    axes_size = aa.axes_size
    operands = [t.factors for t in tensors[:num_operands] if t is not None]
    results = [] if prefer == "operands" else [
        t.factors for t in tensors[num_operands:] if t is not None]
    candidates: list = []
    from_results = [False] * rule.num_factors  # the axes are the results' own
    for f in range(rule.num_factors):
        axes = None
        for factors in results:  # (none with prefer="operands")
            fs = factors.get(f)
            if fs is not None and (fs.axes or fs.overflow):
                axes = fs.axes
                from_results[f] = True
                break
        if axes is None:
            axes, best = (), 1
            for factors in operands:
                fs = factors.get(f)
                if fs is not None and fs.axes:
                    size = axes_size(fs.axes, sizes)
                    if size > best:
                        axes, best = fs.axes, size
        candidates.append(tuple(axes))
    return tuple(candidates), tuple(from_results)


def assign_factor_axes(rule: OpRule, candidates, from_results, sizes, reduction_ok: bool,
                       whole: frozenset[int], prefer: str, shapes=None, uneven=None
                       ) -> list[list[AxisRef]]:
    """The factors' axes from their candidates (factor_candidates): one list of axes per
    factor, no axis twice, sizes dividing (except factors `uneven` allows: padded shards,
    see shardpy.lowering.padding), compound dims expressible. prefer="results": a factor
    takes the results' sharding, else the most sharded operand's, result factors first;
    prefer="result-layout": the same, the factors the results shard placed first (so a
    factor the results leave whole cannot take an axis their layout uses);
    prefer="operands": operands' shardings only, the most sharded factors first. Factors
    in `whole` (choose_plan passes the permutation factors, or those its op's lowering
    cannot exchange) and need-replication factors stay unsharded. With `shapes`
    (operands then results), a factor major in a dim must also divide that dim (a
    permutation factor can be sized unlike some of its dims: a pad's result, a
    concatenate's operands)."""
    n = rule.num_factors
    major_dims, in_results, shared_dims = _rule_facts(rule, shapes)
    size_of, conflicts, axes_size = aa.size, aa.conflicts, aa.axes_size
    if prefer == "operands":
        order = sorted(range(n), key=lambda f: (-axes_size(candidates[f], sizes), f))
    elif prefer == "result-layout":
        # The factors the results shard first: a result factor the results leave whole
        # takes an operand's axis only where the results' own layout does not use it.
        order = sorted(range(n), key=lambda f: (not in_results[f], not from_results[f], f))
    else:
        order = sorted(range(n), key=lambda f: (not in_results[f], f))
    kinds, factor_sizes = rule.kinds, rule.factor_sizes
    chosen: list[list[AxisRef]] = [[] for _ in range(n)]
    used: list[AxisRef] = []
    for f in order:
        wanted = candidates[f]
        if not wanted:
            continue
        kind = kinds[f]
        if kind is FactorKind.NEED_REPLICATION or f in whole:
            continue
        if kind is FactorKind.REDUCTION and not reduction_ok:
            continue
        axes = chosen[f]
        total = 1
        for ref in wanted:
            clash = False
            for u in used:
                if conflicts(ref, u, sizes):
                    clash = True
                    break
            if clash:
                break
            size = size_of(ref, sizes)
            shards = total * size
            if (factor_sizes[f] % shards or any(dim % shards for dim in major_dims[f])) \
                    and not (uneven and uneven[f]):
                # Padded shards only where shardpy.lowering.padding allows them; else the
                # largest prefix of the axis that divides (e.g. 4 of "x"=8 for 4 rows).
                common = gcd(size, *(n // total for n in [factor_sizes[f]]
                                     + major_dims[f]))
                if common > 1:
                    axes.append(aa.sub_prefix(ref, common, sizes))
                break
            axes.append(ref)
            total = shards
        used += axes
    # A dim holding several factors can only shard a later factor when every earlier
    # one is fully sharded (else the shard would be a strided view). (Dims of one
    # factor never block: only `shared_dims`, in tensor order.)
    for dim in shared_dims:
        blocked = False
        for f in dim:
            if blocked:
                chosen[f] = []
            elif axes_size(chosen[f], sizes) < factor_sizes[f]:
                blocked = True
    return chosen


# (id(rule), shapes) -> (rule, (major dims per factor, whether each factor is in a
# result, the dims holding several factors)): what assign_factor_axes reads of a rule,
# the same for every placement weighed (rules are made once per op kind, types and
# attributes: plan_cache.py).
_RULE_FACTS: dict = {}


def _rule_facts(rule: OpRule, shapes) -> tuple:
    key = (id(rule), None if shapes is None else tuple(shapes))
    found = _RULE_FACTS.get(key)
    if found is not None and found[0] is rule:
        return found[1]
    n = rule.num_factors
    major_dims: list[list[int]] = [[] for _ in range(n)]
    if shapes is not None:
        for mapping, shape in zip(rule.operands + rule.results, shapes):
            for dim, factors in enumerate(mapping):
                if factors and dim < len(shape):
                    major_dims[factors[0]].append(shape[dim])
    in_results = [any(f in dim for t in rule.results for dim in t) for f in range(n)]
    shared_dims = [tuple(dim) for t in rule.operands + rule.results for dim in t
                   if len(dim) > 1]
    if len(_RULE_FACTS) > 100_000:
        _RULE_FACTS.clear()
    # (kept alive: its id stays its own)
    _RULE_FACTS[key] = (rule, (major_dims, in_results, shared_dims))
    return major_dims, in_results, shared_dims


def _one_sided_factors_replicated(rule: OpRule, op: ir.Operation) -> OpRule:
    """A pass-through factor that no result has (a dim an op consumes without saying
    it reduces, as approx top-k's input dim) cannot be computed on shards: treat it as
    needing replication. Nor, for a custom call, can one that no operand has (a
    kernel's output dim, as the matrix dims of LAPACK's potrf in JAX's rule: the kernel
    computes them whole); other ops fill such dims the same everywhere (broadcast)."""
    custom = op.name == "stablehlo.custom_call"
    key = (id(rule), custom)
    found = _ONE_SIDED.get(key)
    if found is not None and found[0] is rule:
        return found[1]
    if len(_ONE_SIDED) > 100_000:
        _ONE_SIDED.clear()
    _ONE_SIDED[key] = (rule, _one_sided(rule, custom))  # (kept alive: its id stays its)
    return _ONE_SIDED[key][1]


_ONE_SIDED: dict = {}  # (id(rule), custom call) -> (rule, the rule to place it by)


def _one_sided(rule: OpRule, custom: bool) -> OpRule:
    in_results = {f for t in rule.results for dim in t for f in dim}
    in_operands = {f for t in rule.operands for dim in t for f in dim}
    kinds = list(rule.kinds)
    changed = False
    for f, kind in enumerate(kinds):
        if kind is not FactorKind.PASS_THROUGH or rule.factor_sizes[f] == 1:
            continue
        if f not in in_results or (custom and f not in in_operands):
            kinds[f] = FactorKind.NEED_REPLICATION
            changed = True
    return replace(rule, kinds=tuple(kinds)) if changed else rule


def _one_ordered_reduction(rule: OpRule, factor_axes, sizes) -> list[list[AxisRef]]:
    """An argmax/argmin over several dims keeps only the major-most reduced dim of size
    > 1 sharded: its shards are then contiguous runs of the reduction order, and reducing
    them in shard order is exact even for order-sensitive bodies (the leftmost NaN)."""
    out = [list(a) for a in factor_axes]
    reduced = [f for dim in rule.operands[0] for f in dim
               if rule.kinds[f] is FactorKind.REDUCTION and rule.factor_sizes[f] > 1]
    for f in reduced[1:]:
        out[f] = []
    return out


def moved_replicated_axes(rule: OpRule, tensors, num_operands: int, factor_axes,
                          sizes, uneven=None):
    """Factor choices where the axes operands have on need-replication factors move
    onto one pass-through factor of every operand and result (appended minor-most, so
    the reshard is an all_to_all), one choice per factor that can take them evenly (or
    padded, where `uneven` allows: shardpy.lowering.padding)."""
    need = [f for f, kind in enumerate(rule.kinds) if kind is FactorKind.NEED_REPLICATION]
    if not need:
        return
    used = {a for axes in factor_axes for a in axes}
    moving: list[AxisRef] = []
    for f in need:
        best: list[AxisRef] = []
        for t in tensors[:num_operands]:
            fs = t.factors.get(f) if t is not None else None
            if fs is not None and aa.axes_size(fs.axes, sizes) > aa.axes_size(best, sizes):
                best = list(fs.axes)
        for ref in best:
            if ref in moving or any(aa.conflicts(ref, u, sizes) for u in used):
                continue
            if any(aa.conflicts(ref, m, sizes) for m in moving):
                continue
            moving.append(ref)
    if not moving:
        return
    moving_size = aa.axes_size(moving, sizes)
    tensors_all = rule.operands + rule.results
    for g, kind in enumerate(rule.kinds):
        if kind is not FactorKind.PASS_THROUGH:
            continue
        # g must be the only factor of its dim in every tensor, and in all of them.
        if not all(any(dim == (g,) for dim in t) for t in tensors_all if t):
            continue
        if rule.factor_sizes[g] % (aa.axes_size(factor_axes[g], sizes) * moving_size) \
                and not (uneven and uneven[g]):
            continue
        moved = [list(a) for a in factor_axes]
        moved[g] = moved[g] + moving
        yield moved


# (mapping, factor sizes, its factors' axes, mesh by identity, mesh name) -> (mesh,
# sharding): placements rebuild the same shardings for every candidate and combination.
_FROM_FACTORS: dict = {}


def _sharding_from_factors(mapping, rule: OpRule, factor_axes, template: TensorSharding,
                           sizes) -> TensorSharding:
    mesh = template.mesh
    key = (mapping, rule.factor_sizes, tuple(tuple(factor_axes[f]) for dim in mapping
                                             for f in dim), id(mesh), template.mesh_name)
    found = _FROM_FACTORS.get(key)
    if found is not None and found[0] is mesh:
        return found[1]
    factors = {f: FactorSharding(tuple(factor_axes[f]), True) for dim in mapping for f in dim}
    sharding = unproject(TensorFactors(factors, ()), mapping, rule.factor_sizes, None,
                         template, sizes)
    sharding = plain(sharding, sharding.dims)
    if len(_FROM_FACTORS) > 100_000:
        _FROM_FACTORS.clear()
    _FROM_FACTORS[key] = (mesh, sharding)  # (the mesh kept alive: its id stays its own)
    return sharding
