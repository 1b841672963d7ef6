"""Make every op of a propagated module computable on local shards.

For each op with a sharding rule, choose one sharding per factor (`factor axes`): from
the results where they have it (so results need no reshard), else from the most sharded
operand (slicing the others is free). Operands whose sharding differs get an
`sdy.reshard` in front; the op's result gets the sharding the local computation really
produces — including `unreduced` axes where a reduction factor (contraction, summed dim)
is sharded — and, where the propagated sharding wants something else, an `sdy.all_reduce`
and/or `sdy.reshard` behind it.

Partial sums stay partial through linear ops (add/subtract of equally partial values,
negate, transpose, reshape, broadcast, convert, one partial side of a multiply or dot,
a summing reduce) and are reduced only where a consumer needs the whole value.

Which ops are computed on shards, how their reductions combine and whether their
permutation factors may stay sharded (with halo exchanges, weighed against gathering
them by bytes) is local_ops.LOCAL_OPS (plus every pointwise op);
other ops get every operand replicated and are computed whole on every device, with a
warning: correct, never wrong. Factors that need replication (a sorted dim, a top-k
dim) are never computed sharded: the candidate placements weighed by bytes also move
their axes onto another factor of the op (an all_to_all in, and one back where the
result wants it), or, where LocalOp.split allows (top_k), keep them sharded on the
operand and leave the combining to the lowering. An iota or constant operand is made
again in the layout its user wants instead of being resharded.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import gcd, prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..sharding import axis_algebra as aa
from ..ir.diagnostics import ShardpyError, warning
from ..sharding.factors import FactorSharding, TensorFactors, project, unproject
from ..ir.utils import inline_region_before
from ..ops.registry import SOURCE_OPS, local_entry
from ..lowering.padding import unevenly_shardable
from ..lowering.reducers import reducer_kind
from ..sharding.op_rule import RULE_ATTR, FactorKind, OpRule, RuleTable, shape_of
from ..sharding.sdy_codec import SHARDING_ATTR, encode_axis_list
from ..sharding.model import AxisRef, DimSharding, Mesh, TensorSharding
from ..sharding.state import ShardingState, manual_axes, without_axes

# Regions of these ops hold program data flow (walked); other regions are per-element
# computations (reduce bodies...) and are left alone.
STRUCTURAL_REGION_OPS = frozenset({"func.func", "stablehlo.while", "stablehlo.case",
                                   "stablehlo.if", "sdy.manual_computation",
                                   "sdy.named_computation"})


def program_ops(root: ir.Operation, computations: list | None = None,
                named: list | None = None) -> list[ir.Operation]:
    """Ops of `root`'s regions in program order, descending only into structural ops.
    `computations`, where given, gets the other ops that hold regions (reduce bodies,
    sort comparators...); `named` the sdy.named_computations."""
    found: list[ir.Operation] = []
    has_regions = _HAS_REGIONS

    def visit(op: ir.Operation):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    inner = inner.operation
                    found.append(inner)
                    name = inner.name
                    if name in STRUCTURAL_REGION_OPS:
                        if named is not None and name == "sdy.named_computation":
                            named.append(inner)
                        visit(inner)
                    elif computations is not None:
                        regions = has_regions.get(name)
                        if regions is None:
                            regions = has_regions[name] = _region_count_fixed(inner)
                        if regions is not False:  # True, or unknown for this name: ask
                            if regions or len(inner.regions):
                                computations.append(inner)

    visit(root)
    return found


# op name -> whether ops of that name hold regions (None: varies, ask each op). Ops
# registered with a fixed number of regions answer per name: the walk asks no op twice.
_HAS_REGIONS: dict[str, bool | None] = {}


def _region_count_fixed(op: ir.Operation):
    if not op.name.startswith(("stablehlo.", "chlo.", "sdy.", "func.", "mhlo.")):
        return None
    return bool(len(op.regions))


_LAYOUT_KEYS: dict[int, tuple] = {}  # id(sharding) -> (sharding, key); shardings are immutable


def _placement_key(s: TensorSharding | None):
    """What places the data: the mesh (its axes and device order, not its symbol's
    name), axes per dim, partial axes. No sharding, and a replicated one on the empty
    mesh `<[]>`, mean the same: the whole value on every device."""
    if s is None:
        return None
    found = _LAYOUT_KEYS.get(id(s))
    if found is not None and found[0] is s:
        return found[1]
    whole = not s.unreduced and not any(d.axes for d in s.dims)
    key = (None if whole and s.mesh.is_empty
           else (s.mesh, None) if whole
           else (s.mesh, tuple(d.axes for d in s.dims), frozenset(s.unreduced)))
    if len(_LAYOUT_KEYS) > 100_000:
        _LAYOUT_KEYS.clear()
    _LAYOUT_KEYS[id(s)] = (s, key)
    return key


def _whole(s: TensorSharding) -> bool:
    """Nothing sharded or partial (on whichever mesh)."""
    key = _placement_key(s)
    return key is None or key[1] is None


def same_layout(a: TensorSharding | None, b: TensorSharding | None) -> bool:
    """Equal placement of data: the same mesh (axes and device order), axes per dim and
    partial axes (flags ignored). An unannotated value is whole on every device, so it
    differs from one replicated on a mesh of fewer devices than the program's: a move
    onto another mesh is never skipped (it may be a relabel that moves nothing; the
    reshard planner knows)."""
    return a is b or _placement_key(a) == _placement_key(b)


def plain(sharding: TensorSharding, dims=None, unreduced=()) -> TensorSharding:
    """A closed sharding (no priorities, no replicated axes) on the same mesh, with
    consecutive sub-axes of a dim merged (two factors of one dim, or axes moved onto a
    factor, can leave "x":(1)2, "x":(2)2 side by side: that is "x", as sdy wants it)."""
    dims = sharding.dims if dims is None else dims
    return TensorSharding(sharding.mesh,
                          tuple(DimSharding(_merged_axes(d.axes, sharding.mesh.axes), True)
                                for d in dims),
                          (), tuple(unreduced), sharding.mesh_name)


def _merged_axes(axes, sizes) -> tuple[AxisRef, ...]:
    if len(axes) < 2 or all(ref.sub is None for ref in axes):
        return tuple(axes)
    out: list[AxisRef] = []
    for ref in axes:
        aa.append_or_merge(out, ref, sizes)
    return tuple(out)


def replicated(template: TensorSharding, rank: int) -> TensorSharding:
    return TensorSharding.replicated_on(template.mesh, rank, template.mesh_name)


FALLBACK_DEFAULT = "its operands are gathered on every device and its result sliced"
FALLBACK_REASONS = {
    # The bits rng_bit_generator returns are a function of the state and of the whole
    # output shape (StableHLO leaves the algorithm's use of the shape to the
    # implementation): no device can make just its part of the global array.
    "stablehlo.rng_bit_generator": "its bits depend on the whole output shape, so every "
                                   "device generates all of them and keeps its shard",
}


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


class ExplicitReshards:
    def __init__(self, module: ir.Operation, table: RuleTable):
        self.module = module
        self.table = table
        self.state = ShardingState(module)
        self.warned: set[str] = set()
        self._rules: dict = {}      # (name, types, attributes) -> (token, rule)
        self._plans: dict = {}      # (rule token, shardings by identity, ...) -> OpPlan
        self._interned: dict = {}   # sharding -> one object per distinct sharding
        self._conversions: dict = {}  # (value, wanted layout) -> converted value
        self._remade: list[ir.Operation] = []  # source ops copied into other layouts
        self._reshards: list[ir.Operation] = []  # every sdy.reshard, found or made
        self._caching: dict[str, str] = {}  # op name -> RuleTable.caching
        # (id(have), id(want)) -> (have, want, what _convert makes): the shardings kept
        # alive so their ids stay theirs.
        self._conversion_kinds: dict = {}
        # Results of iotas and constants (remade in any layout for free), as the walk
        # meets them or copies them: the plan key asks it of every operand.
        self._sources: set[ir.Value] = set()

    # -- driver ----------------------------------------------------------------------
    def run(self) -> None:
        funcs = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                 for op in self.module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"}
        self.funcs = funcs
        # The program's devices (its largest mesh's): where an unannotated value lives.
        self.num_devices = max([m.size for m in self.state.codec.meshes.values()
                                if not m.is_maximal] + [1])
        computations: list[ir.Operation] = []
        named: list[ir.Operation] = []
        per_func = [(func, program_ops(func, computations, named)) for func in funcs.values()]
        if named:
            for op in named:
                self._inline_named_computation(op)
            computations.clear()
            per_func = [(func, program_ops(func, computations)) for func in funcs.values()]
        _drop_layout_ops_in_computations(computations)
        for func, ops in per_func:
            for op in ops:
                self._op(op, func)
        for source in self._remade:  # copied for every user: the original is dead
            if not _has_uses(source.results[0]):
                source.erase()
        self._remade.clear()
        fold_reshard_chains(self._reshards)
        self._reshards.clear()

    def _op(self, op: ir.Operation, func: ir.Operation) -> None:
        name = op.name
        handler = _STRUCTURAL_HANDLERS.get(name)
        if handler is not None:
            handler(self, op, func)
        elif name.startswith("sdy."):
            if name == "sdy.reshard":
                self._reshards.append(op)
            # reshards and collectives are lowered later; branches at their returns
        else:
            self._compute_op(op, name)

    # -- ops with regions and terminators (_STRUCTURAL_HANDLERS) ---------------------------
    def _inline_named_computation(self, op: ir.Operation) -> None:
        """An sdy.named_computation is a call inlined (Shardy's export makes it a
        func.call): its body goes in its place, operands pass through sdy.reshards to
        `in_shardings` and returned values to `out_shardings` (or, without them, to the
        results' propagated shardings), so values crossing its boundary onto another
        mesh are moved like any reshard (the walk then meets these reshards).

        before:
            %1 = sdy.named_computation<"f">(%0) in_shardings=[<@m2, [{"d"}, {}]>]
                     out_shardings=[<@m2, [{}, {}]>] (%arg1: tensor<8x16xf32>) {
              %2 = stablehlo.sine %arg1 ...
              sdy.return %2 : tensor<8x16xf32>
            } : (tensor<8x16xf32>) -> tensor<8x16xf32>
        after:
            %r = sdy.reshard %0 <@m2, [{"d"}, {}]> : tensor<8x16xf32>
            %2 = stablehlo.sine %r ...
            %1 = sdy.reshard %2 <@m2, [{}, {}]> : tensor<8x16xf32>
        """
        attrs = op.attributes
        ins = list(sdy.TensorShardingPerValueAttr(attrs["in_shardings"]).shardings) \
            if "in_shardings" in attrs else None
        if "out_shardings" in attrs:
            outs = list(sdy.TensorShardingPerValueAttr(attrs["out_shardings"]).shardings)
        elif SHARDING_ATTR in attrs:
            outs = list(sdy.TensorShardingPerValueAttr(attrs[SHARDING_ATTR]).shardings)
        else:
            outs = None
        with op.location:
            if ins is not None:
                for i, sharding in enumerate(ins):
                    with ir.InsertionPoint(op):
                        op.operands[i] = sdy.ReshardOp(op.operands[i], sharding).result
            if outs is not None:
                for result, sharding in zip(op.results, outs):
                    with ir.InsertionPoint.after(op):
                        reshard = sdy.ReshardOp(result, sharding)
                    result.replace_all_uses_except(reshard.result, reshard.operation)
        inline_region_before(op)

    def _func_return(self, op: ir.Operation, func: ir.Operation) -> None:
        for i in range(len(op.operands)):
            self._reshard_to_whole_or(op, i, self.state.func_result_sharding(func, i))

    def _carried(self, op: ir.Operation, func: ir.Operation) -> None:
        """while, optimization_barrier: operand i becomes result i."""
        for i in range(len(op.operands)):
            self._reshard_to_whole_or(op, i, self.state.of(op.results[i]))

    def _manual_computation(self, op: ir.Operation, func: ir.Operation) -> None:
        ins = sdy.TensorShardingPerValueAttr(op.attributes["in_shardings"]).shardings
        for i, attr in enumerate(ins):
            self._reshard_operand(op, i, self.state.codec.decode(attr, op.location))

    def _propagation_barrier(self, op: ir.Operation, func: ir.Operation) -> None:
        op.results[0].replace_all_uses_with(op.operands[0])
        op.erase()

    def _sharding_group(self, op: ir.Operation, func: ir.Operation) -> None:
        op.erase()

    def _branch(self, op: ir.Operation, func: ir.Operation) -> None:
        # Every device must take the same branch: the index / predicate whole (a
        # partial sum is finished first). Branch values at their returns.
        self._reshard_operand(op, 0, None)

    # -- structure --------------------------------------------------------------------
    def _region_return(self, op: ir.Operation, func: ir.Operation | None = None) -> None:
        parent = op.parent.operation if op.parent is not None else None
        if parent is None:
            return
        name = parent.name
        if name in ("stablehlo.while", "stablehlo.case", "stablehlo.if",
                    "sdy.named_computation"):
            if name == "stablehlo.while" and _region_index(parent, op) == 0:
                self._reshard_operand(op, 0, None)  # the predicate whole on every device
                return
            for i in range(len(op.operands)):
                self._reshard_to_whole_or(op, i, self.state.of(parent.results[i]))
        elif name == "sdy.manual_computation":
            outs = sdy.TensorShardingPerValueAttr(parent.attributes["out_shardings"]).shardings
            manual = manual_axes(parent)
            for i, attr in enumerate(outs):
                target = without_axes(self.state.codec.decode(attr, parent.location), manual)
                self._reshard_operand(op, i, target)

    def _call(self, op: ir.Operation, func: ir.Operation | None = None) -> None:
        callee = self.funcs.get(ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
        if callee is None:
            return
        for i, operand in enumerate(op.operands):
            target = self.state.func_arg_sharding(callee, i)
            current = self.state.of(operand)
            if target is None and current is not None:  # the callee takes whole values
                target = self._everywhere(current)
            self._reshard_operand(op, i, target)
        produced = [self.state.func_result_sharding(callee, i) for i in range(len(op.results))]
        wanted = [self.state.of(r) for r in op.results]
        self.state.set_results(op, produced)
        for result, have, want in zip(op.results, produced, wanted):
            self._reshard_result(op, result, have, want)

    def _constraint_to_reshard(self, op: ir.Operation, func: ir.Operation | None = None
                               ) -> None:
        sharding = self.state.of(op.results[0])
        with op.location, ir.InsertionPoint(op):
            reshard = sdy.ReshardOp(op.operands[0], self.state.codec.encode(sharding))
        self._reshards.append(reshard.operation)
        op.results[0].replace_all_uses_with(reshard.result)
        self.state.remember(reshard.result, sharding)
        op.erase()

    # -- ops with rules -----------------------------------------------------------------
    def _compute_op(self, op: ir.Operation, name: str) -> None:
        state = self.state
        if name in SOURCE_OPS:
            # Made on each device directly in its result sharding (shardpy-to-local).
            result = op.result
            self._sources.add(result)
            have = state.results_of(op, [result], name)[0]
            closed = self._closed(have)
            if closed is not have:
                state.set_results(op, [closed])
            return
        # Each walk over op.operands / op.results makes new Value objects (a binding
        # call per value): read them once into lists.
        operands = list(op.operands)
        try:
            results = [op.result]  # one binding call for the usual single result
        except ValueError:
            results = list(op.results)
        operand_shardings = state.shardings_of(operands)
        result_shardings = state.results_of(op, results, name)
        if len(result_shardings) == 1 and operand_shardings:
            # The common case, decided without the rule: an elementwise op whose
            # operands already have its result's (whole-valued) sharding needs nothing.
            result = result_shardings[0]
            if result is not None and all(s is result for s in operand_shardings) and \
                    not result.unreduced and self._caching_of(name) == "shapes":
                return
        template = None  # the op's mesh: its results' (else its operands')
        placed = False  # anything sharded or partial?
        for s in result_shardings + operand_shardings:
            if s is not None:
                if template is None or template.mesh.is_empty:
                    template = s  # (the empty mesh only where no other is named)
                if not placed and not _whole(s):
                    placed = True
        if template is None:
            return  # nothing annotated: every device computes the whole op
        foreign = check_one_mesh(op, template, result_shardings, operand_shardings)
        if not placed and not foreign:
            # Nothing sharded or partial: every device computes the whole op. From values
            # on a mesh of fewer devices, the others compute garbage: unannotated results
            # say which mesh they are on (users elsewhere then move them).
            if None in result_shardings and not template.mesh.is_empty and \
                    template.mesh.size < self.num_devices:
                state.set_results(op, [s if s is not None else self._intern(
                    replicated(template, len(shape_of(r.type))))
                    for s, r in zip(result_shardings, results)])
            return
        wanted = result_shardings
        if foreign:
            # Values on another mesh are moved (the planner's cross-mesh plans): operands
            # onto the op's mesh before it, results from it after it; the op is planned
            # as if they were whole.
            foreign_operands, foreign_results = foreign
            operand_shardings = [None if f else s
                                 for f, s in zip(foreign_operands, operand_shardings)]
            result_shardings = [None if f else s
                                for f, s in zip(foreign_results, result_shardings)]
        elif name in ("stablehlo.slice", "stablehlo.concatenate") and self._roll(op):
            return
        rule_token, rule = self._rule(op, name, operands, results)
        # How reductions combine matters too (a sum leaves partials, a max finishes
        # itself), and it depends on the op's body, which the rule key does not hold.
        entry = local_entry(op, name)
        combine = combine_key = None
        if entry is not None and entry.combine:
            if name == "stablehlo.reduce" and _reductions_whole(rule, operand_shardings,
                                                                result_shardings):
                combine_key = _ANY_COMBINE  # reading the body can wait for a plan miss
            else:
                combine = combine_key = entry.combine(op)
        variant = entry.variant(op) if entry is not None and entry.variant else None
        # What the plan's cost reads of this op besides its rule and shardings: operands
        # an iota or constant makes (remade for free) and results nobody reads.
        sources = self._sources
        plan_key = (rule_token, combine_key, variant, tuple(map(id, operand_shardings)),
                    tuple(map(id, result_shardings)), tuple([v in sources for v in operands]),
                    tuple([_has_uses(r) for r in results]))
        plan = self._plans.get(plan_key)
        if plan is None:
            if combine_key is _ANY_COMBINE:
                combine = entry.combine(op)
            plan = self._plan(op, rule, entry, combine, operand_shardings,
                              result_shardings, template)
            plan.operands = [self._intern(s) for s in plan.operands]
            plan.results = [self._intern(s) for s in plan.results]
            _decide_moves(plan, operand_shardings, result_shardings)
            # Keep the shardings of the key alive: their ids are part of the key.
            self._plans[plan_key] = plan
            self._interned.setdefault(("keep", plan_key),
                                      (operand_shardings, result_shardings))
        if plan.fallback and name not in self.warned:
            self.warned.add(name)
            warning(op.location, f"'{name}' is computed replicated: "
                                 + FALLBACK_REASONS.get(name, FALLBACK_DEFAULT))
        for i in plan.moved_operands:
            self._reshard_operand(op, i, plan.operands[i])
        if plan.results_changed:
            state.set_results(op, list(plan.results))
        for i in plan.moved_results:
            if not (foreign and foreign[1][i]):
                self._reshard_result(op, results[i], plan.results[i], result_shardings[i])
        if foreign:
            for i, moved in enumerate(foreign[0]):
                if moved and i not in plan.moved_operands:
                    self._reshard_operand(op, i, plan.operands[i])
            if not plan.results_changed:
                state.set_results(op, list(plan.results))
            for i, moved in enumerate(foreign[1]):
                if moved:
                    self._reshard_result(op, results[i], plan.results[i], wanted[i])

    def _caching_of(self, name: str) -> str:
        """RuleTable.caching(name), asked once per op name ("shapes": elementwise)."""
        found = self._caching.get(name)
        if found is None:
            found = self._caching[name] = self.table.caching(name)
        return found

    def _roll(self, op: ir.Operation) -> bool:
        """A concatenate of slices of one array x sharded along the concat dim (a
        roll, a halo) is computed from x's shards with x's sharding (a window of x
        per piece: lowering_windowed.lower_concatenate), and the slices feeding only
        such concatenates are not computed at all."""
        from ..lowering.windowed import roll_sharding

        if op.name == "stablehlo.slice":
            users = [use.owner for use in op.results[0].uses]
            return bool(users) and all(
                roll_sharding(getattr(u, "operation", u), self.state.of) is not None
                for u in users)
        have = roll_sharding(op, self.state.of)
        if have is None:
            return False
        have = self._intern(plain(have, have.dims))
        want = self.state.of(op.results[0])
        self.state.set_results(op, [have])
        self._reshard_result(op, op.results[0], have, want)
        return True

    def _intern(self, sharding):
        if sharding is None:
            return None
        return self._interned.setdefault(sharding, sharding)

    def _closed(self, sharding: TensorSharding | None) -> TensorSharding | None:
        """plain(sharding), interned, computed once per sharding object."""
        if sharding is None:
            return None
        key = ("closed", id(sharding))
        found = self._interned.get(key)
        if found is None or found[0] is not sharding:
            closed = self._intern(plain(sharding, sharding.dims))
            if closed == sharding:
                closed = sharding
            found = self._interned[key] = (sharding, closed)
        return found[1]

    def _rule(self, op: ir.Operation, name: str, operands: list, results: list):
        """(token, rule): one rule per distinct op name, types and attributes, or per op
        where the rule reads more of the IR (a concatenate's producers, a scatter's
        body, a custom call's users: RuleTable.caching). The token, a small int per
        key, stands for the key in plan keys (hashing the key again would ask each of
        its types and attributes for its hash again)."""
        attrs = op.attributes
        key = (name, tuple([v.type for v in operands]), tuple([r.type for r in results]))
        caching = self._caching_of(name)
        own_rule = RULE_ATTR in attrs
        if caching != "shapes" or own_rule:  # elementwise: shapes say it all
            # All attributes, the op's sharding among them: reading them by name costs
            # more, and plans are per sharding anyway (a rule per plan at most).
            key += tuple(attrs.values())
        if not own_rule and caching == "ir":
            key += (object(),)  # never shared: this op's rule and plans are its own
        found = self._rules.get(key)
        if found is None:
            if own_rule:
                rule = OpRule.from_attr(attrs[RULE_ATTR])
            else:
                rule = self.table.build(op, [shape_of(t) for t in key[1]],
                                        [shape_of(t) for t in key[2]])
                entry = local_entry(op)
                if rule is not None and entry is not None and entry.rule is not None:
                    rule = entry.rule(op, rule)  # how the op is placed on shards
            found = self._rules[key] = (len(self._rules), rule)
        return found

    def _plan(self, op, rule: OpRule | None, entry, combine: str | None, operand_shardings,
              result_shardings, template: TensorSharding) -> OpPlan:
        ranks_in = [len(shape_of(v.type)) for v in op.operands]
        ranks_out = [len(shape_of(r.type)) for r in op.results]
        local = rule is not None and (entry is not None or _pointwise(rule))
        if not local:
            return OpPlan([replicated(template, r) for r in ranks_in],
                          [replicated(template, r) for r in ranks_out], fallback=True)
        rule = _one_sided_factors_replicated(rule, op)
        sizes = template.mesh.axes
        tensors = [project(m, s, rule.factor_sizes, sizes) if s is not None else None
                   for m, s in zip(rule.operands + rule.results,
                                   operand_shardings + result_shardings)]
        num_operands = len(op.operands)
        # Two candidate placements of the factors: keep the results where they are, or
        # keep the operands where they are (e.g. a sharded contraction reduce-scattered
        # into place instead of moving both operands); the cheaper one by bytes moved.
        # Windowed factors (permutations: padded, sliced, reversed, windowed dims) may
        # stay sharded where the op's lowering exchanges what shards need between
        # devices (LOCAL_OPS' `exchange`: the bytes its collective_permutes move, each
        # counted whole, as stats.py does); each placement is also tried with them
        # whole (the planner's gathers). The fewest bytes win; on a tie, the least work
        # per device, then the placement without an exchange (fewer collectives).
        permutation = frozenset(rule.factors_of(FactorKind.PERMUTATION))
        exchange = entry is not None and entry.permutation
        options = [permutation]
        if exchange:
            options = [frozenset(), entry.windowed(op, rule) if entry.windowed is not None
                       else permutation]
        shapes = [shape_of(v.type) for v in op.operands] + [shape_of(r.type)
                                                             for r in op.results]
        best = None
        bases = []
        reductions = [("results", combine is not None), ("operands", combine is not None)]
        if combine is not None and entry.whole_too:
            reductions.append(("results", False))  # reduction factors whole
        uneven = unevenly_shardable(rule, entry is not None and entry.padding is not None)
        for whole in options:
            for prefer, reduction_ok in reductions:
                factor_axes = _choose_factor_axes(rule, tensors, num_operands, sizes,
                                                  reduction_ok, whole, prefer, shapes,
                                                  uneven)
                if combine == "select-pair":
                    factor_axes = _one_ordered_reduction(rule, factor_axes, sizes)
                if whole is options[-1]:
                    bases.append(factor_axes)  # windowed factors whole
                candidate = self._placement(op, rule, factor_axes, operand_shardings,
                                            template, combine, entry)
                cost = _reshard_cost(op, operand_shardings, candidate.operands,
                                     candidate.results, result_shardings)
                moved = 0.0
                if exchange and not whole and entry.exchange is not None:
                    moved = entry.exchange(op, candidate.operands, candidate.results)
                    if moved is None:
                        continue  # the lowering cannot compute these shards
                key = (cost + moved, _work(op, candidate), moved > 0)
                if best is None or key < best[0]:
                    best = (key, candidate)
        # Need-replication factors an operand has sharded: their axes moved onto another
        # factor (an all_to_all rather than an all_gather), or kept sharded where the op
        # combines per-shard results itself (LocalOp.split). Taken when they move fewer
        # bytes, or as many but leave less to compute per device.
        for factor_axes in bases:
            for moved in _moved_replicated_axes(rule, tensors, num_operands, factor_axes,
                                                sizes, uneven):
                candidate = self._placement(op, rule, moved, operand_shardings, template,
                                            combine, entry)
                cost = _reshard_cost(op, operand_shardings, candidate.operands,
                                     candidate.results, result_shardings)
                key = (cost, _work(op, candidate), False)
                if key < best[0]:
                    best = (key, candidate)
            if entry is not None and entry.split is not None:
                for candidate, internal in self._split_placements(
                        op, rule, entry, tensors, num_operands, factor_axes, template):
                    cost = internal + _reshard_cost(op, operand_shardings, candidate.operands,
                                                    candidate.results, result_shardings)
                    key = (cost, _work(op, candidate), False)
                    if key < best[0]:
                        best = (key, candidate)
        return best[1]

    def _split_placements(self, op, rule, entry, tensors, num_operands, factor_axes,
                          template):
        """Placements keeping a need-replication factor sharded on the operands (as the
        most sharded operand has it), results whole on it, with the bytes per device the
        lowering's own all_gather of the per-shard results moves."""
        from ..ir.types import element_bytes

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
            yield OpPlan(operands, results), internal

    def _placement(self, op, rule, factor_axes, operand_shardings, template,
                   combine: str | None, entry=None) -> OpPlan:
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
        carried = _carried_unreduced(op, operand_shardings, operands)
        if carried:
            operands = [plain(o, o.dims, _mesh_order(carried_i, template)) if o is not None
                        else o for o, carried_i in zip(operands, carried[1])]
            partial += [a for a in carried[0] if a not in partial]
        if combine == "sum" and partial and entry is not None and entry.counted_once:
            # Operands that pass into the partial result as they are (a scatter-add's
            # initial value): counted once, on the first device along the partial axes.
            for i in entry.counted_once(op):
                o = operands[i]
                used = {a for d in o.dims for a in d.axes}
                keep = [a for a in partial if a not in used]
                operands[i] = plain(o, o.dims, _mesh_order(
                    list(o.unreduced) + [a for a in keep if a not in o.unreduced],
                    template))
        results = []
        for mapping in rule.results:
            result = _sharding_from_factors(mapping, rule, factor_axes, template, sizes)
            used = {a for d in result.dims for a in d.axes}
            keep = [a for a in partial if a not in used]
            results.append(plain(result, result.dims, _mesh_order(keep, template)))
        return OpPlan(operands, results)

    # -- inserting reshards ---------------------------------------------------------------
    def _reshard_to_whole_or(self, op: ir.Operation, index: int,
                             target: TensorSharding | None) -> None:
        """Reshard an operand that becomes a result of the same type (a func result, a
        while carry, a barrier value, a branch value) to that result's sharding; an
        unannotated result is whole, so the operand is made whole too (propagation
        leaves results unannotated where branches disagree or no user asks)."""
        current = self.state.of(op.operands[index])
        if target is None and current is not None:
            target = self._everywhere(current)
        self._reshard_operand(op, index, target)

    def _everywhere(self, current: TensorSharding) -> TensorSharding:
        """The value whole on every device of the program (what an unannotated value
        is): replicated on its own mesh where that mesh has every device, else on the
        empty mesh `<[]>` (the devices outside a smaller mesh get it too)."""
        if current.mesh.is_empty or current.mesh.size >= self.num_devices:
            return replicated(current, current.rank)
        return self._intern(TensorSharding.replicated_on(Mesh(), current.rank))

    def _reshard_operand(self, op: ir.Operation, index: int,
                         target: TensorSharding | None) -> None:
        """Give operand `index` of `op` the sharding `target` (None: the value whole,
        not partial, wherever it is, on every device where its mesh has fewer)."""
        value = op.operands[index]
        current = self.state.of(value)
        if target is None:
            if current is None:
                return
            if not current.mesh.is_empty and current.mesh.size < self.num_devices:
                target = self._everywhere(current)
            elif not current.unreduced:
                return
            else:
                target = plain(current, current.dims)
        if current is None:
            if _whole(target):
                return  # whole on every device already
            current = replicated(target, target.rank)
        elif same_layout(current, target):
            return
        # One conversion per value and wanted layout, made before its first user (not
        # earlier: a gathered weight lives no longer than needed) and reused by later
        # users its block dominates.
        key = (value, _layout_key(target))
        cached = self._conversions.get(key)
        if cached is not None and _inside(op, cached[1]):
            op.operands[index] = cached[0]
            return
        if _from_source(value) and not target.unreduced:
            # An iota or constant is made again in the wanted layout: no data moves.
            with op.location, ir.InsertionPoint(op):
                copy = value.owner.operation.clone()
            new = copy.results[0]
            self._sources.add(new)
            self.state.set_results(copy, [plain(target, target.dims)])
            source = value.owner.operation
            if not any(source == seen for seen in self._remade):
                self._remade.append(source)
            self._conversions[key] = (new, op.block)
            op.operands[index] = new
            return
        with op.location, ir.InsertionPoint(op):
            new = self._convert(value, current, target)
        self._conversions[key] = (new, op.block)
        op.operands[index] = new

    def _reshard_result(self, op: ir.Operation, result: ir.Value,
                        have: TensorSharding | None, want: TensorSharding | None) -> None:
        if not _has_uses(result):
            return  # nobody reads it (e.g. the sorted keys of an argsort)
        if want is None:
            if have is None or not have.unreduced:
                return
            want = self._closed(have)  # summed: plain(have), one object per sharding
        if have is None:  # the op produced a whole value, on every device
            if _whole(want):
                return
            have = self._intern(replicated(want, want.rank))  # its users want it sharded
        elif same_layout(have, want):
            return
        with op.location, ir.InsertionPoint.after(op):
            final = self._convert(result, have, want)
        result.replace_all_uses_except(final, final.owner.operation)

    def _convert(self, value: ir.Value, have: TensorSharding, want: TensorSharding
                 ) -> ir.Value:
        """Ops (at the current insertion point) turning `have` into `want`: an
        sdy.all_reduce when only partial axes go away, else one sdy.reshard."""
        key = (id(have), id(want))
        found = self._conversion_kinds.get(key)
        if found is None or found[0] is not have or found[1] is not want:
            found = self._conversion_kinds[key] = (have, want) + self._conversion_kind(
                have, want)
        reduction_axes, out_attr, out = found[2:]
        if reduction_axes is not None:
            new = sdy.AllReduceOp(value, reduction_axes, out_attr).result
        else:
            reshard = sdy.ReshardOp(value, out_attr)
            self._reshards.append(reshard.operation)
            new = reshard.result
        self.state.remember(new, out)
        return new

    def _conversion_kind(self, have: TensorSharding, want: TensorSharding) -> tuple:
        """(reduction axes attribute or None for a reshard, the out_sharding attribute,
        the interned out sharding) of _convert, decided once per pair of shardings."""
        codec = self.state.codec
        reduce = [a for a in have.unreduced if a not in want.unreduced]
        dims_same = all(h.axes == w.axes for h, w in zip(have.dims, want.dims))
        if reduce and dims_same and all(a in have.unreduced for a in want.unreduced):
            out = plain(have, have.dims, [a for a in have.unreduced if a not in reduce])
            return encode_axis_list(reduce), codec.encode(out), self._intern(out)
        out = plain(want, want.dims, want.unreduced)
        return None, codec.encode(out), self._intern(out)


# op name -> how ExplicitReshards treats it (other sdy ops are left for later passes;
# everything else is an op with a rule: _compute_op). Plain functions, not closures
# over the instance: a cycle would keep every value the pass touched alive until the
# next garbage collection, and later passes walk a slower module meanwhile.
_STRUCTURAL_HANDLERS = {
    "func.return": ExplicitReshards._func_return,
    "stablehlo.return": ExplicitReshards._region_return,
    "sdy.return": ExplicitReshards._region_return,
    "sdy.sharding_constraint": ExplicitReshards._constraint_to_reshard,
    "sdy.propagation_barrier": ExplicitReshards._propagation_barrier,
    "sdy.sharding_group": ExplicitReshards._sharding_group,
    "stablehlo.while": ExplicitReshards._carried,
    "stablehlo.optimization_barrier": ExplicitReshards._carried,
    "sdy.manual_computation": ExplicitReshards._manual_computation,
    "func.call": ExplicitReshards._call,
    "stablehlo.case": ExplicitReshards._branch,
    "stablehlo.if": ExplicitReshards._branch,
}


def _decide_moves(plan: OpPlan, operand_shardings, result_shardings) -> None:
    """Fill in what applying `plan` to an op with these shardings takes (the checks
    _reshard_operand and _reshard_result would make, made once per plan)."""
    plan.moved_operands = tuple(
        i for i, (have, target) in enumerate(zip(operand_shardings, plan.operands))
        if target is not None and not same_layout(have, target))
    plan.results_changed = not all(p is r or p == r
                                   for p, r in zip(plan.results, result_shardings))
    plan.moved_results = tuple(
        i for i, (have, want) in enumerate(zip(plan.results, result_shardings))
        if not (want is None and (have is None or not have.unreduced))
        and not (want is not None and same_layout(have, want)))


def _drop_layout_ops_in_computations(computations: list[ir.Operation]) -> None:
    """Sharding annotations inside per-element computations (JAX puts constraints in
    some reduction bodies) say nothing about program values: drop them.
    `computations`: the non-structural ops with regions (program_ops)."""
    from ..ir.utils import collect_ops

    for computation in computations:
        for op in collect_ops(computation):
            if op.name not in ("sdy.sharding_constraint", "sdy.propagation_barrier",
                               "sdy.sharding_group"):
                continue
            if op.name != "sdy.sharding_group":
                op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()


def _layout_key(sharding: TensorSharding):
    return (sharding.mesh_name, sharding.mesh, tuple(d.axes for d in sharding.dims),
            frozenset(sharding.unreduced))


def _inside(op: ir.Operation, block: ir.Block) -> bool:
    """Is `op` in `block` or in a region nested under it (so a value defined earlier in
    `block` dominates it)?"""
    current = op
    while current is not None and current.name != "func.func":
        if current.block == block:
            return True
        current = current.parent
    return False


def fold_reshard_chains(reshards: list[ir.Operation]) -> None:
    """reshard(reshard(v)) or reshard(all_reduce(v)) with nothing else using the inner
    value -> one reshard of v (the planner then finds the whole path at once, e.g. a
    reduce_scatter, or nothing when it is a round trip). `reshards`: every sdy.reshard
    of the module, in any order (a chain folds into its outermost reshard either way)."""
    # An erased op's Python handle must not be touched again: each reshard is known by
    # its result (looked up while the op lives) and skipped once folded into another.
    position = {op.results[0]: i for i, op in enumerate(reshards)}
    erased = [False] * len(reshards)
    for i, op in enumerate(reshards):
        if erased[i]:
            continue
        while True:
            source = op.operands[0]
            if not isinstance(source, ir.OpResult):
                break
            inner = source.owner.operation
            if inner.name not in ("sdy.reshard", "sdy.all_reduce"):
                break
            if sum(1 for _ in source.uses) != 1:
                break
            op.operands[0] = inner.operands[0]
            j = position.get(source)
            if j is not None:
                erased[j] = True
            inner.erase()


def _region_index(parent: ir.Operation, terminator: ir.Operation) -> int:
    region = terminator.block.region
    for i, candidate in enumerate(parent.regions):
        if candidate == region:
            return i
    return -1


def _pointwise(rule: OpRule) -> bool:
    tensors = rule.operands + rule.results
    return bool(tensors) and all(t == tensors[0] for t in tensors) and all(
        k is FactorKind.PASS_THROUGH for k in rule.kinds)


def _choose_factor_axes(rule: OpRule, tensors: list[TensorFactors | None], num_operands: int,
                        sizes, reduction_ok: bool, whole: frozenset[int] | None = None,
                        prefer: str = "results", shapes=None, uneven=None
                        ) -> list[list[AxisRef]]:
    """One list of axes per factor, no axis twice, sizes dividing (except factors
    `uneven` allows: padded shards, see shardpy.lowering.padding), compound dims expressible.
    prefer="results": a factor takes the results' sharding, else the most sharded
    operand's, result factors first; prefer="operands": operands' shardings only, the
    most sharded factors first. Factors in `whole` (default: permutation factors) and
    need-replication factors stay unsharded. With `shapes` (operands then results), a
    factor major in a dim must also divide that dim (a permutation factor can be sized
    unlike some of its dims: a pad's result, a concatenate's operands)."""
    n = rule.num_factors
    if whole is None:
        whole = frozenset(rule.factors_of(FactorKind.PERMUTATION))
    major_dims: list[list[int]] = [[] for _ in range(n)]
    if shapes is not None:
        for mapping, shape in zip(rule.operands + rule.results, shapes):
            for dim, factors in enumerate(mapping):
                if factors and dim < len(shape):
                    major_dims[factors[0]].append(shape[dim])

    def most_sharded(candidates_of) -> list[AxisRef]:
        best: list[AxisRef] = []
        for t in candidates_of:
            fs = t.factors.get(f) if t is not None else None
            if fs is not None and aa.axes_size(fs.axes, sizes) > aa.axes_size(best, sizes):
                best = list(fs.axes)
        return best

    candidates: list[list[AxisRef]] = [[] for _ in range(n)]
    for f in range(n):
        if prefer == "operands":
            candidates[f] = most_sharded(tensors[:num_operands])
            continue
        for t in tensors[num_operands:]:
            fs = t.factors.get(f) if t is not None else None
            if fs is not None and (fs.axes or fs.overflow):
                candidates[f] = list(fs.axes)
                break
        else:
            candidates[f] = most_sharded(tensors[:num_operands])
    if prefer == "operands":
        order = sorted(range(n), key=lambda f: (-aa.axes_size(candidates[f], sizes), f))
    else:
        in_results = [any(f in dim for t in rule.results for dim in t) for f in range(n)]
        order = sorted(range(n), key=lambda f: (not in_results[f], f))
    chosen: list[list[AxisRef]] = [[] for _ in range(n)]
    used: list[AxisRef] = []
    for f in order:
        kind = rule.kinds[f]
        if kind is FactorKind.NEED_REPLICATION or f in whole:
            continue
        if kind is FactorKind.REDUCTION and not reduction_ok:
            continue
        axes = []
        total = 1
        for ref in candidates[f]:
            if any(aa.conflicts(ref, u, sizes) for u in used):
                break
            size = aa.size(ref, sizes)
            if (rule.factor_sizes[f] % (total * size) or any(
                    dim % (total * size) for dim in major_dims[f])) and not (
                    uneven and uneven[f]):
                # Padded shards only where shardpy.lowering.padding allows them; else the
                # largest prefix of the axis that divides (e.g. 4 of "x"=8 for 4 rows).
                common = gcd(size, *(n // total for n in [rule.factor_sizes[f]]
                                     + major_dims[f]))
                if common > 1:
                    axes.append(aa.sub_prefix(ref, common, sizes))
                break
            axes.append(ref)
            total *= size
        chosen[f] = axes
        used += axes
    # A dim holding several factors can only shard a later factor when every earlier
    # one is fully sharded (else the shard would be a strided view).
    for tensor in rule.operands + rule.results:
        for dim in tensor:
            blocked = False
            for f in dim:
                if blocked:
                    chosen[f] = []
                elif aa.axes_size(chosen[f], sizes) < rule.factor_sizes[f]:
                    blocked = True
    return chosen


# Plan key of a reduce whose plan cannot depend on how it combines (_reductions_whole).
_ANY_COMBINE = "any"


def _reductions_whole(rule: OpRule | None, operand_shardings, result_shardings) -> bool:
    """No operand shards a dim holding a reduction factor and nothing is partial. Then
    how a reduce combines partial results cannot change its plan: the planner takes a
    reduction factor's axes only from the operands' (or partial results') shardings,
    and partial sums come only from sharded reduction factors or partial operands."""
    if rule is None:
        return False
    for sharding in result_shardings:
        if sharding is not None and sharding.unreduced:
            return False
    kinds = rule.kinds
    for mapping, sharding in zip(rule.operands, operand_shardings):
        if sharding is None:
            continue
        if sharding.unreduced:
            return False
        for dim, factors in zip(sharding.dims, mapping):
            if dim.axes and any(kinds[f] is FactorKind.REDUCTION for f in factors):
                return False
    return True


def _has_uses(value: ir.Value) -> bool:
    return next(iter(value.uses), None) is not None


def check_one_mesh(op: ir.Operation, template: TensorSharding, result_shardings,
                   operand_shardings) -> tuple[list[bool], list[bool]] | None:
    """The mesh check of an op computed on shards. The op runs on `template`'s mesh:
    its first annotated result's, else its first annotated operand's (meshes with the
    same axes and device order are one mesh whatever their symbols' names; a replicated
    value on the empty mesh `<[]>` is on every device, so it fits any). Operands and
    results on another mesh are moved, onto the op's mesh before it and from it after
    it. Returns, where some value is on another mesh, which operands and which results
    (None: all on the op's mesh). Values crossing meshes at calls, region and function
    results, barriers and manual computations are moved the same way: all of them
    through the reshard planner's cross-mesh plans."""
    mesh = template.mesh

    def other(s: TensorSharding | None) -> bool:
        # Shardings decoded from one module share their mesh object: compare by
        # identity first (a mesh's equality walks its axes).
        return s is not None and s.mesh is not mesh and s.mesh != mesh and not (
            s.mesh.is_empty and _whole(s))

    for s in result_shardings:  # (the common case, one mesh, decided without lists)
        if s is not None and s.mesh is not mesh and other(s):
            break
    else:
        for s in operand_shardings:
            if s is not None and s.mesh is not mesh and other(s):
                break
        else:
            return None
    return [other(s) for s in operand_shardings], [other(s) for s in result_shardings]


def _from_source(value: ir.Value) -> bool:
    """Is `value` made by an iota or constant (remade in any layout for free)?"""
    return isinstance(value, ir.OpResult) and value.owner.operation.name in SOURCE_OPS


def _one_sided_factors_replicated(rule: OpRule, op: ir.Operation) -> OpRule:
    """A pass-through factor that no result has (a dim an op consumes without saying
    it reduces, as approx top-k's input dim) cannot be computed on shards: treat it as
    needing replication. Nor, for a custom call, can one that no operand has (a
    kernel's output dim, as the matrix dims of LAPACK's potrf in JAX's rule: the kernel
    computes them whole); other ops fill such dims the same everywhere (broadcast)."""
    in_results = {f for t in rule.results for dim in t for f in dim}
    in_operands = {f for t in rule.operands for dim in t for f in dim}
    custom = op.name == "stablehlo.custom_call"
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


def _moved_replicated_axes(rule: OpRule, tensors, num_operands: int, factor_axes,
                           sizes, uneven=None):
    """Factor choices where the axes operands have on need-replication factors move
    onto one pass-through factor of every operand and result (appended minor-most, so
    the reshard is an all_to_all), one choice per factor that can take them evenly (or
    padded, where `uneven` allows: shardpy.lowering.padding)."""
    used = {a for axes in factor_axes for a in axes}
    moving: list[AxisRef] = []
    for f, kind in enumerate(rule.kinds):
        if kind is not FactorKind.NEED_REPLICATION:
            continue
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


def _work(op, plan: OpPlan) -> int:
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


def _reshard_cost(op, have_operands, want_operands, produced, wanted) -> float:
    """Bytes per device the reshards around `op` would move (planner's cost model)."""
    from .reshard_planner import ReshardError, plan_reshard
    from ..ir.types import element_bytes

    total = 0.0
    pairs = [p for p in zip(op.operands, have_operands, want_operands)
             if not (_from_source(p[0]) and p[2] is not None and not p[2].unreduced)]
    pairs += [p for p in zip(op.results, produced, wanted)
              if _has_uses(p[0])]
    for value, have, want in pairs:
        if want is None and have is not None and have.unreduced:
            want = plain(have, have.dims)  # partial values are summed where unannotated
        if want is None or have is None or same_layout(have, want):
            continue
        value_type = value.type
        try:
            total += plan_reshard(plain(have, have.dims, have.unreduced),
                                  plain(want, want.dims, want.unreduced),
                                  tuple(value_type.shape),
                                  element_bytes(value_type.element_type)).cost
        except ReshardError:
            total += float("inf")
    return total


def _sharding_from_factors(mapping, rule: OpRule, factor_axes, template: TensorSharding,
                           sizes) -> TensorSharding:
    factors = {f: FactorSharding(tuple(factor_axes[f]), True) for dim in mapping for f in dim}
    sharding = unproject(TensorFactors(factors, ()), mapping, rule.factor_sizes, None,
                         template, sizes)
    return plain(sharding, sharding.dims)


def _mesh_order(axes, template: TensorSharding) -> list[AxisRef]:
    """Axes sorted as sdy wants them (mesh order), consecutive sub-axes merged."""
    order = {n: i for i, n in enumerate(template.mesh.axis_names)}
    merged: list[AxisRef] = []
    for ref in sorted(axes, key=lambda a: (order.get(a.name, 0), a.sub or (0, 0))):
        aa.append_or_merge(merged, ref, template.mesh.axes)
    return merged


LINEAR_ALL_OPERANDS = frozenset({"stablehlo.add", "stablehlo.subtract",
                                 "stablehlo.concatenate"})
LINEAR_SINGLE_OPERAND = frozenset({"stablehlo.negate", "stablehlo.transpose",
                                   "stablehlo.reshape", "stablehlo.broadcast_in_dim",
                                   "stablehlo.copy", "stablehlo.reverse", "stablehlo.slice"})
LINEAR_ONE_SIDE = frozenset({"stablehlo.multiply", "stablehlo.dot_general", "stablehlo.dot",
                             "stablehlo.convolution"})


def _carried_unreduced(op: ir.Operation, current, required):
    """Partial axes a linear op can carry from operands to its result:
    (result's carried axes, per-operand unreduced to keep), or None."""
    unreduced = [set(s.unreduced) if s is not None else set() for s in current]
    if not any(unreduced):
        return None
    name = op.name
    if name == "stablehlo.convert" and _is_float(op.operands[0].type) and _is_float(
            op.results[0].type):
        name = "stablehlo.negate"  # float -> float convert is linear
    if name == "stablehlo.reduce" and reducer_kind(op) == "sum":
        name = "stablehlo.negate"
    common = None
    if name in LINEAR_ALL_OPERANDS:
        common = set.intersection(*unreduced) if all(unreduced) else None
        if common is not None and any(u != common for u in unreduced):
            common = None
    elif name in LINEAR_SINGLE_OPERAND and len(unreduced) >= 1:
        common = unreduced[0] if not any(unreduced[1:]) else None
    elif name in LINEAR_ONE_SIDE:
        partial = [u for u in unreduced if u]
        common = partial[0] if len(partial) == 1 else None
    if not common:
        return None
    # Axes the op now shards a dim on cannot stay partial.
    for req in required:
        if req is not None:
            common -= {a for d in req.dims for a in d.axes}
    if not common:
        return None
    keep = [sorted(common & u, key=str) for u in unreduced]
    return sorted(common, key=str), keep


def _is_float(value_type: ir.Type) -> bool:
    return isinstance(value_type, ir.RankedTensorType) and isinstance(
        value_type.element_type, ir.FloatType)
