"""shardpy-choose-shardings: the program's shardings chosen together, by estimated time.

Propagation gives every value a sharding one op at a time, and where two factors want
the same mesh axis (a batch-sharded activation meeting an FSDP weight sharded along its
features) it settles the conflict by a fixed rule. That choice then decides every op
downstream. This pass revisits it for the whole program at once: the values propagation
placed (not the arguments, results, constraints and region boundaries a user or the
program's structure fixes) get a few candidate shardings each, every op is costed under
every combination of its values' candidates (its plan from plan_choice: the reshards
into and out of it timed by the collective time model, plus its own compute time, which
is where a full-size partial product shows), and one candidate per value is chosen to
minimize the program's total estimated time, exactly (choice_program.py: variable
elimination, in milliseconds on every model of bench/models and under a second at 50k
ops; an integer program through scipy's HiGHS where ops tie too many values together).
shardpy-insert-reshards then places each op between the chosen shardings.

  values     results of ops with a sharding rule in a program block (function bodies,
             loop and branch bodies), used only by ops of that block: free; others are
             fixed as they are, and so are a roll's and its source's (computed from the
             source's shards by a halo exchange). Values joined by an elementwise op
             with equal shapes and equal shardings form one group and change together.
  candidates the propagated sharding, and the sharding with each dim's axes moved to
             another dim they divide (at most MAX_CANDIDATES per group, dims nearest the
             major end first).
  program    one candidate per group; each op's cost a table over the candidates of its
             groups (choice_program.py). The propagated shardings stay where the
             choice saves less than IMPROVEMENT of the program's estimated time (so
             small programs, and pinned tests, keep their plans unless the gain is
             real), and on ties.
  costs      an op's estimated time, the one its plan was ranked by: its reshards by
             the collective time model, its own compute (bytes read and written, a
             contraction's multiply-adds at the profile's rate for its kind and
             shape; nothing for ops XLA fuses, FUSED_OPS) and the collectives
             its lowering makes (a halo exchange's collective_permutes, a split
             top-k's all_gather); costs inside a loop times its trip count, but a
             reshard of a value the loop does not change once (XLA hoists it:
             choice_calls.hoisted_trips).
  limits     programs of more than `max_ops` ops (MAX_OPS, the pass option max-ops)
             keep propagation's choice, as do those elimination cannot solve whose
             integer program would have more than MAX_COLUMNS columns.

before (FSDP: tokens batch-sharded, position table and weights sharded along d):
    %x = stablehlo.add %tok, %pos {sdy.sharding = <@mesh, [{}, {}, {"data"}]>}
    %h = stablehlo.dot_general %x, %w ... {sdy.sharding = <@mesh, [{}, {}, {"data"}]>}
        // partial products of the whole batch, then a reduce_scatter
after:
    %x = stablehlo.add %tok, %pos {sdy.sharding = <@mesh, [{"data"}, {}, {}]>}
    %h = stablehlo.dot_general %x, %w ... {sdy.sharding = <@mesh, [{"data"}, {}, {}]>}
        // the weight all-gathered (what XLA does), activations stay batch-sharded
"""
from __future__ import annotations

import math
import time as _time
from dataclasses import dataclass, field
from functools import partial

from jaxlib.mlir import ir

from ..lowering.windowed.concatenate import roll_pieces, roll_sharding
from ..ops.collectives import in_manual_code
from ..ops.registry import FUSED_OPS, SOURCE_OPS
from ..sharding.collective_time import CollectiveTimeModel
from ..sharding.model import TensorSharding
from ..sharding.op_rule import RULE_ATTR, RuleTable
from ..sharding.state import ShardingState
from .choice_calls import (called_in_manual_computations, remember_calls, single_calls,
                           symbol, trip_weight)
from .choice_program import (MAX_COMBINATIONS, candidates, combinations, descend,
                             eliminate, integer_program)
from .plan_cache import PlanCache, same_layout
from .plan_choice import choose_plan
from .plan_costs import plan_time, reshard_time
from .regions import STRUCTURAL_REGION_OPS, program_ops, sink_data_flow_edges

# The relative gain below which propagation's choice is kept: about the model's error.
# On the cpu model benchmark, choices it estimated 2-9% faster (gpt_dp_tp, llama) ran
# no faster, often slower (more collectives than XLA then combines); 13-32% held up.
IMPROVEMENT = 0.10
MAX_COLUMNS = 20_000   # larger programs keep propagation's choice (see run)
# Programs of more ops keep propagation's choice (decided before anything is costed):
# ~0.7 s at 10k ops, ~2.5 s at 50k; without it an 8-layer FSDP step (9,920 ops) ran
# 2.9x jax.jit's, 0.96x with it (bench/README.md). A guard, not a bound for real models.
MAX_OPS = 100_000
_UNREAD = object()


@dataclass
class _Group:
    values: list = field(default_factory=list)
    fixed: bool = False
    candidates: list = field(default_factory=list)  # [propagated, moved...]
    first: int = 0  # its first column in the integer program (if one is built)


class _UnionFind:
    def __init__(self):
        self.parent: dict = {}

    def find(self, x):
        parent = self.parent
        root = x
        while True:
            up = parent.get(root)
            if up is None or up == root:
                break
            root = up
        while x != root:  # path compression
            up = parent[x]
            parent[x] = root
            x = up
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


class ShardingChoice:
    """The pass over one module (`run`); `report` says what it found and chose."""

    def __init__(self, module: ir.Operation, table: RuleTable, model: CollectiveTimeModel,
                 max_ops: int = MAX_OPS):
        self.module = module
        self.max_ops = max_ops
        self.state = ShardingState(module)
        self.cache = PlanCache(table, partial(choose_plan, model=model), ir_frozen=True,
                               costs_only=True)
        self.model = model
        self.report: dict = {}
        self.groups: list[_Group] = []
        self._unannotated: dict = {}  # unannotated values: replicated on self.mesh
        self._tables: dict = {}  # op cost tables by what decides them (_op_terms)
        self._candidate_lists: dict = {}  # (id(interned sharding), shape) -> candidates
        self.calls: dict = {}  # private functions called once: name -> (callee, call)
        self._shapes: dict = {}  # type -> its shape (None: not a ranked tensor)
        self._io: list = []  # per computed op: (its operands, its results), read once
        self._even: dict = {}  # group -> whether its every candidate shards evenly

    # -- driver --------------------------------------------------------------------------
    def run(self) -> None:
        start = _time.perf_counter()
        funcs = [op.operation for op in self.module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"]
        top = sum(len(f.regions[0].blocks[0].operations) for f in funcs if f.regions[0].blocks)
        if top > self.max_ops:  # (counted in C++: no walk of a large program)
            self.report = {"ops": top, "changed_values": 0,
                           "skipped": f"{top} ops > {self.max_ops}",
                           "seconds": _time.perf_counter() - start}
            return
        manual = called_in_manual_computations(funcs)
        edges: list = []
        ops = [op for func in funcs if ir.StringAttr(func.attributes["sym_name"]).value
               not in manual for op in program_ops(func, edges=edges)]
        if edges:  # (and again without them)
            sink_data_flow_edges(edges, self.state.codec)
            ops = [op for func in funcs if ir.StringAttr(func.attributes["sym_name"]).value
                   not in manual for op in program_ops(func)]
        self.mesh = self._program_mesh()
        if len(ops) > self.max_ops:
            # Too large to choose in the time the partitioner may take: propagation's
            # choice stands.
            self.report = {"ops": len(ops), "changed_values": 0,
                           "skipped": f"{len(ops)} ops > {self.max_ops}",
                           "seconds": _time.perf_counter() - start}
            return
        computed = [op for op in ops if self._computed(op)]
        # Each op's operands and results read once: every read makes new Value objects
        # through the bindings (the chooser's bookkeeping at 50k ops was mostly that).
        self._io = [(list(op.operands), list(op.results)) for op in computed]
        loops = [op for op in ops if op.name == "stablehlo.while" and self._computed(op, True)]
        boundaries = [op for op in ops if self._boundary(op)]
        funcs_by_name = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in funcs}
        self.calls = single_calls(ops, funcs_by_name, manual, self.state)
        remember_calls(self.cache.memo, self.module, ops)
        values, fixed, carries = self._values(computed, loops, set(computed + boundaries))
        groups, group_of = self._groups(computed, values, fixed, carries)
        self.groups = groups
        movable = [g for g in groups if len(g.candidates) > 1]
        self.report = {"ops": len(ops), "values": len(values), "groups": len(groups),
                       "movable_groups": len(movable), "changed_values": 0}
        if not movable:
            return
        terms = self._op_terms(computed, ops, group_of) + self._boundary_terms(
            boundaries, group_of, funcs_by_name)
        choice, before, after = self._solve(groups, terms, computed, group_of)
        self.report["seconds"] = _time.perf_counter() - start
        self.report.update(estimated_s_before=before, estimated_s_after=after)
        if choice is None or after > before * (1 - IMPROVEMENT):
            self.report["kept"] = True
            return
        changed = 0
        for group, k in zip(groups, choice):
            if k == 0:
                continue
            new = group.candidates[k]
            for value in group.values:
                self.state.write(value, new)
                self._unannotated.pop(value, None)
                changed += 1
        for callee, call in self.calls.values():
            # The callee's results as its only call's results are now (what the
            # return's reshards were costed to): nothing to reshard at the call.
            for i, result in enumerate(call.results):
                chosen = self._sharding(result)
                if group_of.get(result) is not None and chosen is not None:
                    self.state.write_func_result(callee, i, chosen)
        self.report["changed_values"] = changed
        self.report["seconds"] = _time.perf_counter() - start

    # -- which values may change ----------------------------------------------------------
    def _program_mesh(self):
        """(mesh, symbol) of the program's only mesh of several devices, else None (with
        several meshes, unannotated values stay as they are)."""
        meshes = [(m, name) for name, m in self.state.codec.meshes.items()
                  if not m.is_empty and not getattr(m, "is_maximal", False) and m.size > 1]
        return meshes[0] if len(meshes) == 1 else None

    def _sharding(self, value):
        found = self._unannotated.get(value)
        return found if found is not None else self.state.of(value)

    def _shape(self, value):
        """The value's shape as a tuple, None where it is not a ranked tensor (once per
        type: types are uniqued)."""
        t = value.type
        found = self._shapes.get(t, _UNREAD)
        if found is _UNREAD:
            found = self._shapes[t] = (tuple(t.shape) if isinstance(t, ir.RankedTensorType)
                                       else None)
        return found

    def _computed(self, op: ir.Operation, structural: bool = False) -> bool:
        """Ops placed by a sharding rule (not structural, not a source, not sdy's), or
        with `structural`, any op; neither inside a manual computation, whose shardings
        name only the free axes."""
        name = op.name
        if not structural and (name in STRUCTURAL_REGION_OPS or name in SOURCE_OPS
                               or name.startswith(("sdy.", "func."))
                               or self.cache.caching_of(name) == "never"):
            return False
        return not in_manual_code(op)

    def _boundary(self, op: ir.Operation) -> bool:
        """Ops that reshard an operand to a sharding known here: a function's result
        (func.return), a callee's argument (func.call), a loop's carry (the while's
        operands, its body's stablehlo.return)."""
        name = op.name
        if name in ("func.return", "func.call"):
            return True
        if name == "stablehlo.while":
            return self._computed(op, True)
        if name == "stablehlo.return":
            parent = op.parent
            return parent is not None and parent.name == "stablehlo.while" and \
                self._computed(parent, True) and op.block == parent.regions[1].blocks[0]
        return False

    def _replicated(self, value):
        """An unannotated tensor's sharding here: replicated on the program's mesh."""
        if self.mesh is None or not isinstance(value.type, ir.RankedTensorType):
            return None
        s = self._unannotated[value] = self.cache.intern(TensorSharding.replicated_on(
            self.mesh[0], len(value.type.shape), self.mesh[1]))
        return s

    def _values(self, computed, loops, modeled):
        """The results of computed ops and the carries of loops (each carry: the while's
        result, its body's and its condition's block argument, one sharding), which of
        them must stay as they are, and the carries."""
        values, fixed, carries = [], set(), []
        shape = self._shape
        for op, (operands, results) in zip(computed, self._io):
            values_of_op = operands + results
            meshes = {s.mesh for s in self.state.shardings_of(values_of_op)
                      if s is not None and not s.mesh.is_empty}
            if len(meshes) > 1 or any(0 in (shape(v) or (1,)) for v in values_of_op):
                # Empty values move nothing: every placement costs the same latency
                # guesses; an op between meshes is not costed (_op_terms). Either way
                # the op and its values keep propagation's answer.
                fixed.update(values_of_op)
            elif op.name == "stablehlo.concatenate" and roll_sharding(op, self.state.of):
                # A roll (jnp.roll on a sharded dim) is computed from x's shards by a halo
                # exchange, which plans cost as gathers: it and x keep propagation's answer.
                fixed.update(values_of_op + [roll_pieces(op)[0]])

        def settle(value, users_of) -> None:
            s = self.state.of(value)
            if s is None:
                s = self._replicated(value)
            dims = shape(value)
            if value in fixed or not _movable(s) or dims is None or 0 in dims:
                fixed.add(value)
                return
            for user in users_of:
                if user not in modeled:
                    fixed.add(value)
                    return

        for _, results in self._io:
            for result in results:
                values.append(result)
                settle(result, _users(result))
        for callee, call in self.calls.values():
            # A private function called once: its arguments, and its results (as the
            # call's results), are chosen like any value; the call's operands and the
            # callee's return are boundaries to them.
            for arg in callee.regions[0].blocks[0].arguments:
                values.append(arg)
                settle(arg, _users(arg))
            for result in call.results:
                values.append(result)
                settle(result, _users(result))
        for loop in loops:
            body, cond = loop.regions[1].blocks[0], loop.regions[0].blocks[0]
            for i, result in enumerate(loop.results):
                members = [result, body.arguments[i], cond.arguments[i]]
                carries.append(members)
                values.extend(members)
                users = [u for m in members for u in _users(m)]
                settle(result, users)
                if result in fixed or shape(result) is None:
                    fixed.update(members)
                else:
                    for m in members[1:]:  # the block arguments read the while's sharding
                        self._unannotated.pop(m, None)
                        if result in self._unannotated:
                            self._unannotated[m] = self._unannotated[result]
        return values, fixed, carries

    def _groups(self, computed, values, fixed, carries):
        """Values an elementwise op joins (equal shapes, equal shardings) and the parts
        of one loop carry, as groups."""
        uf = _UnionFind()
        value_set = set(values)
        for members in carries:
            for m in members[1:]:
                uf.union(members[0], m)
        for op, (operands, results) in zip(computed, self._io):
            if len(results) != 1 or self.cache.caching_of(op.name) != "shapes":
                continue
            result = results[0]
            shape = self._shape(result)
            have = self._sharding(result)
            for operand in operands:
                if operand in value_set and shape is not None and \
                        self._shape(operand) == shape and same_layout(
                            self._sharding(operand), have):
                    uf.union(result, operand)
        by_root: dict = {}
        for value in values:
            by_root.setdefault(uf.find(value), []).append(value)
        groups, group_of = [], {}
        for members in by_root.values():
            group = _Group(members, any(v in fixed for v in members))
            s = self._sharding(members[0])
            if group.fixed:
                group.candidates = [s]
            else:
                s = self.cache.intern(s)
                key = (id(s), self._shape(members[0]))
                found = self._candidate_lists.get(key)
                if found is None:
                    found = self._candidate_lists[key] = candidates(s, key[1], self.cache)
                group.candidates = found
            for v in members:
                group_of[v] = len(groups)
            groups.append(group)
        return groups, group_of

    def _candidates_of(self, value, group_of):
        """(group index or None, the value's candidate shardings)."""
        g = group_of.get(value)
        if g is not None and len(self.groups[g].candidates) > 1:
            return g, self.groups[g].candidates
        return None, [self._sharding(value)]

    def _columns(self, computed, group_of) -> int:
        """The integer program's size, counted before any op is costed: a column per
        group and candidate, and per op and combination of its groups' candidates."""
        total = sum(len(g.candidates) for g in self.groups if len(g.candidates) > 1)
        for op in computed:
            counts = {}
            for value in list(op.operands) + list(op.results):
                g = group_of.get(value)
                if g is not None and len(self.groups[g].candidates) > 1:
                    counts[g] = len(self.groups[g].candidates)
            if len(counts) > 1:
                product = math.prod(counts.values())
                total += product if product <= MAX_COMBINATIONS else 1 + sum(
                    n - 1 for n in counts.values())
        return total

    # -- costs ------------------------------------------------------------------------------
    def _op_terms(self, computed, ops, group_of):
        """Per computed op: (its groups with more than one candidate, {combination:
        seconds}), times the trip counts of the loops around it."""
        terms = []
        state = self.state
        # Values an iota or constant makes (remade, never moved). A computed op's
        # operands come from ops of its own function, all in `ops`.
        sources = {r for op in ops if op.name in SOURCE_OPS for r in op.results}
        weights: dict = {}  # the trip weight per block holding ops
        for op, (operands, results) in zip(computed, self._io):
            name = op.name
            have_operands = [self._sharding(v) for v in operands]
            have_results = state.results_of(op, results, name)
            have_results = [self._unannotated.get(r, s) for r, s in zip(results, have_results)]
            template = next((s for s in have_results + have_operands if s is not None), None)
            if template is None or any(
                    s is not None and s.mesh != template.mesh and not s.mesh.is_empty
                    for s in have_results + have_operands):
                continue
            slots = []  # (is_result, index, group)
            for is_result, values in ((False, operands), (True, results)):
                for i, v in enumerate(values):
                    g, _ = self._candidates_of(v, group_of)
                    if g is not None:
                        slots.append((is_result, i, g))
            distinct = list(dict.fromkeys(g for _, _, g in slots))
            if not distinct:
                continue
            if len(distinct) == 1 and len(slots) == len(operands) + len(results) and \
                    self._free_elementwise(op, name, distinct[0]):
                # Operands and results in one group take the same candidate: nothing
                # moves, and XLA fuses the op (no compute): no cost under any candidate,
                # so no term (a fifth of the plans on a GPT step were these).
                continue
            block = op.block
            weight = weights.get(block)
            if weight is None:
                weight = weights[block] = trip_weight(op, self.calls)
            # Ops alike (rule, how they combine, each slot's candidates or fixed
            # sharding, sources, unused results) cost alike: each distinct case once
            # (the layers of a model repeat).
            facts = self.cache.op_facts(op, name, operands, results, sources)
            (token, _), _, combine, variant, made, used = facts
            key = (token, combine, variant, tuple(map(id, have_operands)),
                   tuple(map(id, have_results)),
                   tuple((r, i, distinct.index(g), tuple(map(id, self.groups[g].candidates)))
                         for r, i, g in slots), made, used)
            known = self._tables.get(key)
            if known is not None:
                terms.append((distinct, _weighted(known[0], weight)))
                continue
            table = {}
            for combo in combinations([len(self.groups[g].candidates) for g in distinct]):
                pick = dict(zip(distinct, combo))
                ops_s = list(have_operands)
                res_s = list(have_results)
                for is_result, i, g in slots:
                    (res_s if is_result else ops_s)[i] = self.groups[g].candidates[pick[g]]
                plan = self.cache.plan(op, name, operands, results, ops_s, res_s,
                                       template, sources, facts)
                # The time choose_plan ranked it by (its own collectives included: a
                # halo exchange, a split top-k's all_gather); costed here only for the
                # fallback, which is not ranked.
                table[combo] = plan.seconds if plan.seconds is not None else plan_time(
                    op, ops_s, plan, res_s, self.model)
            self._tables[key] = (table, have_operands, have_results)  # (ids stay theirs)
            terms.append((distinct, _weighted(table, weight)))
        return terms

    def _free_elementwise(self, op, name, group: int) -> bool:
        """An elementwise op XLA fuses into its neighbours (FUSED_OPS: no compute of its
        own), whose sharding rule is the one for its shapes (no rule of its own), on
        values `group`'s every candidate shards evenly (an uneven one is padded)."""
        if name not in FUSED_OPS or self.cache.caching_of(name) != "shapes" or \
                RULE_ATTR in op.attributes:
            return False
        found = self._even.get(group)
        if found is None:
            shape = self._shape(self.groups[group].values[0])
            found = self._even[group] = shape is not None and all(
                all(n % s.dim_shards(d) == 0 for d, n in enumerate(shape))
                for s in self.groups[group].candidates)
        return found

    def _boundary_terms(self, boundaries, group_of, funcs_by_name):
        """Per operand of a boundary op: the reshard to what the other side has."""
        terms = []
        for op in boundaries:
            weight = trip_weight(op, self.calls)
            for i, value in enumerate(op.operands):
                g, have = self._candidates_of(value, group_of)
                h, want = self._wanted_at_boundary(op, i, group_of, funcs_by_name)
                distinct = [x for x in dict.fromkeys([g, h]) if x is not None]
                if not distinct:
                    continue
                table = {}
                for a, cand in enumerate(have):
                    for b, target in enumerate(want):
                        if target is None:  # unannotated: made whole (reshard_to_whole_or)
                            target = TensorSharding.replicated_on(cand.mesh, cand.rank,
                                                                  cand.mesh_name)
                        if g is not None and g == h and a != b:
                            continue
                        pick = {g: a, h: b}
                        combo = tuple(pick[x] for x in distinct)
                        table[combo] = weight * reshard_time(cand, target, value.type,
                                                             self.model)
                terms.append((distinct, table))
        return terms

    def _wanted_at_boundary(self, user: ir.Operation, index: int, group_of, funcs_by_name):
        """(carry group or None, the shardings operand `index` of boundary op `user` is
        resharded to: its function's result sharding, its callee's argument sharding,
        or the loop carry's candidates; None for a whole value)."""
        name = user.name
        if name == "func.return":
            func = user.parent
            while func is not None and func.name != "func.func":
                func = func.parent
            link = self.calls.get(symbol(func)) if func is not None else None
            if link is not None:  # the call's result
                return self._candidates_of(link[1].results[index], group_of)
            return None, [self.state.func_result_sharding(func, index) if func else None]
        if name == "func.call":
            callee_name = ir.FlatSymbolRefAttr(user.attributes["callee"]).value
            if callee_name in self.calls:
                callee = self.calls[callee_name][0]
                return self._candidates_of(callee.regions[0].blocks[0].arguments[index],
                                           group_of)
            callee = funcs_by_name.get(callee_name)
            return None, [self.state.func_arg_sharding(callee, index) if callee else None]
        loop = user if name == "stablehlo.while" else user.parent
        return self._candidates_of(loop.results[index], group_of)

    # -- the choice --------------------------------------------------------------------------
    def _solve(self, groups, terms, computed, group_of):
        """(chosen candidate per group or None, estimated seconds of propagation's
        choice, of the chosen one): exact by variable elimination; where its tables
        grow too large, by the integer program (at most MAX_COLUMNS columns, else
        propagation's choice stands), or local search (`descend`) past TIME_LIMIT_S."""
        found = eliminate(groups, terms, self.report)
        if found is not None:
            return found
        columns = self.report["columns"] = self._columns(computed, group_of)
        if columns > MAX_COLUMNS:
            # Too large to solve exactly in the time the partitioner may take (issue
            # 10's compile-time targets): propagation's choice stands.
            self.report["skipped"] = f"{columns} columns > {MAX_COLUMNS}"
            base = sum(t.get(tuple([0] * len(d)), 0.0) for d, t in terms)
            return None, base, base
        choice, before, after = integer_program(groups, terms, self.report)
        if choice is None:  # no answer in the time limit: local search instead
            choice, after = descend(groups, terms)
            self.report["solver"] = "descent"
        return choice, before, after

def _weighted(table: dict, weight: float) -> dict:
    """An op's cost table times its trip weight (outside loops, the shared table)."""
    return table if weight == 1.0 else {c: weight * t for c, t in table.items()}


def _users(value) -> list:
    found = []
    for use in value.uses:
        user = use.owner
        found.append(getattr(user, "operation", user))
    return found


def _movable(s: TensorSharding | None) -> bool:
    """A sharding this pass may change: whole axes, nothing partial, on a mesh of
    several devices."""
    if s is None or s.unreduced or s.mesh.is_empty or getattr(s.mesh, "is_maximal", False):
        return False
    return all(ref.sub is None for d in s.dims for ref in d.axes) and s.rank > 0
