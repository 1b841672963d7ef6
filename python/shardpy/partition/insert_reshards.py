"""shardpy-insert-reshards: make every op of a propagated module computable on local shards.

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
them by estimated time, then bytes: plan_choice) is said by the `local` field of the
op's registry entry (shardpy.ops; every pointwise op computes on shards too); other ops
get every operand replicated and are computed whole on every device, with a warning:
correct, never wrong. Factors that need replication (a sorted dim, a top-k dim) are
never computed sharded: the candidate placements weighed also move their axes onto
another factor of the op (an all_to_all in, and one back where the
result wants it), or, where LocalOp.split allows (top_k), keep them sharded on the
operand and leave the combining to the lowering. An iota or constant operand is made
again in the layout its user wants instead of being resharded.

This module walks the program and applies each op's plan (inserting the reshards);
the rest of the pass:

  plan_choice.py  how one op is computed on shards: candidate factor axes, ranked
  plan_costs.py   what a plan costs: reshard and compute time, bytes moved, work
  unreduced.py    which ops carry partial sums (LINEAR_*)
  fallback.py     ops computed replicated, and their warning
  regions.py      the program walk, ops with regions and terminators
                  (_STRUCTURAL_HANDLERS), sdy.named_computation inlining
  layouts.py      closing shardings as sdy wants them (plain, replicated)
  plan_cache.py   what the pass memoizes to be fast (plans, rules, layout keys), and why
"""
from __future__ import annotations

from functools import partial

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from .. import explain
from ..ir.diagnostics import ShardpyError
from ..lowering.windowed.concatenate import roll_sharding
from ..ops.registry import SOURCE_OPS, local_entry
from ..sharding.model import Mesh, TensorSharding
from ..sharding.op_rule import RuleTable, shape_of
from ..sharding.sdy_codec import encode_axis_list
from ..sharding.state import ShardingState
from .choice_calls import remember_calls
from .fallback import fallback_reason, warn_computed_replicated
from .layouts import from_source, has_uses, plain, replicated
from .plan_cache import PlanCache, layout_key, same_layout, whole
from .plan_choice import choose_plan
from .regions import (_STRUCTURAL_HANDLERS, drop_layout_ops_in_computations,
                      inline_named_computation, program_ops, sink_data_flow_edges)


def require_static_shapes(module: ir.Operation) -> None:
    """One located error for a function with a dynamic dim in its signature (jax.export
    with shape polymorphism writes `tensor<?x16xf32>`): shardpy partitions static shapes
    only (further in, such a type failed as an internal error of shardpy-to-local).
    Propagation leaves such values alone, as Shardy's does; the partition passes ask."""
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name != "func.func":
            continue
        signature = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        for what, types in (("argument", signature.inputs), ("result", signature.results)):
            for i, t in enumerate(types):
                if isinstance(t, ir.RankedTensorType) and not t.has_static_shape:
                    name = ir.StringAttr(op.attributes["sym_name"]).value
                    raise ShardpyError(f"@{name}'s {what} {i} has a dynamic shape ({t}): "
                                       f"shardpy partitions static shapes only (export "
                                       f"without shape polymorphism)", op.location)


class ExplicitReshards:
    """The pass over one module: `run` places every op (its plan: plan_choice) and
    inserts the reshards and all_reduces that takes."""

    def __init__(self, module: ir.Operation, table: RuleTable, model=None):
        self.module = module
        self.state = ShardingState(module)
        self.warned: set[str] = set()
        # Plans ranked by `model`'s estimated time (a CollectiveTimeModel), then bytes.
        self.cache = PlanCache(table, partial(choose_plan, model=model))
        self._conversions: dict = {}  # (value, wanted layout) -> converted value
        self._remade: list[ir.Operation] = []  # source ops copied into other layouts
        self.reshards: list[ir.Operation] = []  # every sdy.reshard, found or made
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
        edges: list[ir.Operation] = []
        per_func = [(func, program_ops(func, computations, named, edges))
                    for func in funcs.values()]
        if named or edges:
            sink_data_flow_edges(edges, self.state.codec)
            for op in named:
                inline_named_computation(op)
            computations.clear()
            per_func = [(func, program_ops(func, computations)) for func in funcs.values()]
        drop_layout_ops_in_computations(computations)
        remember_calls(self.cache.memo, self.module, (op for _, ops in per_func for op in ops))
        for func, ops in per_func:
            for op in ops:
                self._op(op, func)
        for source in self._remade:  # copied for every user: the original is dead
            if not has_uses(source.results[0]):
                source.erase()
        self._remade.clear()
        fold_reshard_chains(self.reshards)
        self.reshards.clear()
        recorder = explain.current()
        if recorder is not None:  # --explain-html: the program as it stands now
            recorder.note_program(self.module, self.state)

    def _op(self, op: ir.Operation, func: ir.Operation) -> None:
        name = op.name
        handler = _STRUCTURAL_HANDLERS.get(name)
        if handler is not None:
            handler(self, op, func)
        elif name.startswith("sdy."):
            if name == "sdy.reshard":
                self.reshards.append(op)
            # reshards and collectives are lowered later; branches at their returns
        else:
            self._compute_op(op, name)

    # -- ops with rules -----------------------------------------------------------------
    def _compute_op(self, op: ir.Operation, name: str) -> None:
        state = self.state
        if name in SOURCE_OPS:
            # Made on each device directly in its result sharding (shardpy-to-local).
            result = op.result
            self._sources.add(result)
            have = state.results_of(op, [result], name)[0]
            closed = self.cache.closed(have)
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
        if name in ("stablehlo.slice", "stablehlo.concatenate") and self._roll(op):
            # (before the checks below: a roll's slices are skipped, so its concatenate
            # may have nothing annotated, and it is still computed from x's shards)
            return
        operand_shardings = state.shardings_of(operands)
        result_shardings = state.results_of(op, results, name)
        if len(result_shardings) == 1 and operand_shardings:
            # The common case, decided without the rule: an elementwise op whose
            # operands already have its result's (whole-valued) sharding needs nothing.
            result = result_shardings[0]
            if result is not None and all(s is result for s in operand_shardings) and \
                    not result.unreduced and self.cache.caching_of(name) == "shapes":
                return
        template = None  # the op's mesh: its results' (else its operands')
        placed = False  # anything sharded or partial?
        for s in result_shardings + operand_shardings:
            if s is not None:
                if template is None or template.mesh.is_empty:
                    template = s  # (the empty mesh only where no other is named)
                if not placed and not whole(s):
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
                state.set_results(op, [s if s is not None else self.cache.intern(
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
        # How the op is computed on shards (plan_choice), chosen once per distinct case.
        plan = self.cache.plan(op, name, operands, results, operand_shardings,
                               result_shardings, template, self._sources)
        if plan.fallback:
            warn_computed_replicated(op, name, self.warned)
        recorder = explain.current()
        if recorder is not None and plan.fallback:
            recorder.fallbacks.append({"op": name, "loc": explain.where(op.location),
                                       "reason": fallback_reason(name)})
        if recorder is not None:  # --explain: what the conversions below are for
            first_reason = len(recorder.reasons)
        for i in plan.moved_operands:
            self.reshard_operand(op, i, plan.operands[i])
        if plan.results_changed:
            state.set_results(op, list(plan.results))
        for i in plan.moved_results:
            if not (foreign and foreign[1][i]):
                self.reshard_result(op, results[i], plan.results[i], result_shardings[i])
        if foreign:
            for i, moved in enumerate(foreign[0]):
                if moved and i not in plan.moved_operands:
                    self.reshard_operand(op, i, plan.operands[i])
            if not plan.results_changed:
                state.set_results(op, list(plan.results))
            for i, moved in enumerate(foreign[1]):
                if moved:
                    self.reshard_result(op, results[i], plan.results[i], wanted[i])
        if recorder is not None and len(recorder.reasons) > first_reason:
            made = recorder.reasons[first_reason:]
            if plan.fallback:
                explain.note_fallback(made, fallback_reason(name))
            else:
                explain.note_placements(made, plan, self._weighed(
                    op, name, operands, results, operand_shardings, result_shardings,
                    template))

    def _weighed(self, op, name, operands, results, operand_shardings, result_shardings,
                 template) -> list:
        """--explain: every placement choose_plan compares for `op`, with its rank key
        (the plan cache answers without them)."""
        _, rule = self.cache.rule(op, name, operands, results)
        entry = local_entry(op, name)
        combine = entry.combine(op) if entry is not None and entry.combine else None
        weighed: list = []
        self.cache.choose(op, rule, entry, combine, operand_shardings, result_shardings,
                          template, weighed=weighed, memo=self.cache.memo)
        return weighed

    def _roll(self, op: ir.Operation) -> bool:
        """A concatenate of slices of one array x sharded along the concat dim (a
        roll, a halo) is computed from x's shards with x's sharding (a window of x
        per piece: lowering.windowed.concatenate.lower_concatenate), and the slices feeding only
        such concatenates are not computed at all."""
        if op.name == "stablehlo.slice":
            users = [use.owner for use in op.results[0].uses]
            return bool(users) and all(
                roll_sharding(getattr(u, "operation", u), self.state.of) is not None
                for u in users)
        have = roll_sharding(op, self.state.of)
        if have is None:
            return False
        have = self.cache.intern(plain(have, have.dims))
        want = self.state.of(op.results[0])
        self.state.set_results(op, [have])
        self.reshard_result(op, op.results[0], have, want)
        return True

    # -- inserting reshards ---------------------------------------------------------------
    def reshard_to_whole_or(self, op: ir.Operation, index: int,
                            target: TensorSharding | None) -> None:
        """Reshard an operand that becomes a result of the same type (a func result, a
        while carry, a barrier value, a branch value) to that result's sharding; an
        unannotated result is whole, so the operand is made whole too (propagation
        leaves results unannotated where branches disagree or no user asks)."""
        current = self.state.of(op.operands[index])
        if target is None and current is not None:
            target = self.everywhere(current)
        self.reshard_operand(op, index, target)

    def everywhere(self, current: TensorSharding) -> TensorSharding:
        """The value whole on every device of the program (what an unannotated value
        is): replicated on its own mesh where that mesh has every device, else on the
        empty mesh `<[]>` (the devices outside a smaller mesh get it too)."""
        if current.mesh.is_empty or current.mesh.size >= self.num_devices:
            return replicated(current, current.rank)
        return self.cache.intern(TensorSharding.replicated_on(Mesh(), current.rank))

    def reshard_operand(self, op: ir.Operation, index: int,
                        target: TensorSharding | None) -> None:
        """Give operand `index` of `op` the sharding `target` (None: the value whole,
        not partial, wherever it is, on every device where its mesh has fewer)."""
        value = op.operands[index]
        current = self.state.of(value)
        if target is None:
            if current is None:
                return
            if not current.mesh.is_empty and current.mesh.size < self.num_devices:
                target = self.everywhere(current)
            elif not current.unreduced:
                return
            else:
                target = plain(current, current.dims)
        if current is None:
            if whole(target):
                return  # whole on every device already
            current = replicated(target, target.rank)
        elif same_layout(current, target):
            return
        # One conversion per value and wanted layout, made before its first user (not
        # earlier: a gathered weight lives no longer than needed) and reused by later
        # users its block dominates.
        key = (value, layout_key(target))
        cached = self._conversions.get(key)
        if cached is not None and _inside(op, cached[1]):
            op.operands[index] = cached[0]
            return
        if from_source(value) and not target.unreduced:
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
        loc = op.location
        recorder = explain.current()
        if recorder is not None:  # --explain: why this conversion
            loc = recorder.tag(loc, explain.operand_reason(recorder, op, index, value,
                                                           current, target))
        with loc, ir.InsertionPoint(op):
            new = self._convert(value, current, target)
        self._conversions[key] = (new, op.block)
        op.operands[index] = new

    def reshard_result(self, op: ir.Operation, result: ir.Value,
                       have: TensorSharding | None, want: TensorSharding | None) -> None:
        if not has_uses(result):
            return  # nobody reads it (e.g. the sorted keys of an argsort)
        if want is None:
            if have is None or not have.unreduced:
                return
            want = self.cache.closed(have)  # summed: plain(have), one object per sharding
        if have is None:  # the op produced a whole value, on every device
            if whole(want):
                return
            have = self.cache.intern(replicated(want, want.rank))  # its users want it sharded
        elif same_layout(have, want):
            return
        loc = op.location
        recorder = explain.current()
        if recorder is not None:  # --explain: why this conversion
            loc = recorder.tag(loc, explain.result_reason(recorder, op, result, have, want))
        with loc, ir.InsertionPoint.after(op):
            final = self._convert(result, have, want)
        result.replace_all_uses_except(final, final.owner.operation)

    def _convert(self, value: ir.Value, have: TensorSharding, want: TensorSharding
                 ) -> ir.Value:
        """Ops (at the current insertion point) turning `have` into `want`: an
        sdy.all_reduce when only partial axes go away, else one sdy.reshard."""
        reduction_axes, out_attr, out = self.cache.per_pair(have, want,
                                                            self._conversion_kind)
        if reduction_axes is not None:
            new = sdy.AllReduceOp(value, reduction_axes, out_attr).result
        else:
            reshard = sdy.ReshardOp(value, out_attr)
            self.reshards.append(reshard.operation)
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
            return encode_axis_list(reduce), codec.encode(out), self.cache.intern(out)
        out = plain(want, want.dims, want.unreduced)
        return None, codec.encode(out), self.cache.intern(out)


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
            s.mesh.is_empty and whole(s))

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


def _inside(op: ir.Operation, block: ir.Block) -> bool:
    """Is `op` in `block` or in a region nested under it (so a value defined earlier in
    `block` dominates it)?"""
    current = op
    while current is not None and current.name != "func.func":
        if current.block == block:
            return True
        current = current.parent
    return False
