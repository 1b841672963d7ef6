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
minimize the program's total estimated time, exactly, as an integer program (scipy's
HiGHS). shardpy-insert-reshards then places each op between the chosen shardings.

  values     results of ops with a sharding rule in a program block (function bodies,
             loop and branch bodies), used only by ops of that block: free; others are
             fixed as they are. Values joined by an elementwise op with equal shapes and
             equal shardings form one group and change together.
  candidates the propagated sharding, and the sharding with each dim's axes moved to
             another dim they divide (at most MAX_CANDIDATES per group, dims nearest the
             major end first).
  program    a 0/1 variable per group and candidate (one chosen per group), a 0/1
             variable per op and combination of the candidates of its groups, tied to
             them (the local polytope of a pairwise-and-higher model: exact as an
             integer program). The propagated shardings stay where they cost no more
             than IMPROVEMENT of the program's estimated time less (so small programs,
             and pinned tests, keep their plans unless the gain is real).

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

import itertools
import math
import time as _time
from dataclasses import dataclass, field

import numpy as np
from jaxlib.mlir import ir

from ..ir.types import element_bytes
from ..ops.registry import SOURCE_OPS
from ..sharding.collective_time import CollectiveTimeModel
from ..sharding.model import AxisRef, DimSharding, TensorSharding
from ..sharding.op_rule import RuleTable
from ..sharding.state import ShardingState
from .layouts import plain
from .plan_cache import PlanCache, same_layout
from .plan_choice import choose_plan, plan_time
from .regions import STRUCTURAL_REGION_OPS, program_ops

# Users outside the ops placed by rules whose wanted sharding is known (the function's
# result, the callee's argument): a value they use stays free, costed by that reshard.
_BOUNDARY_USERS = frozenset({"func.return", "func.call"})
MAX_CANDIDATES = 4     # per group, the propagated sharding included
MAX_COMBINATIONS = 256  # per op; beyond it, combinations moving one group at a time
IMPROVEMENT = 0.02     # the relative gain below which propagation's choice is kept
TIME_LIMIT_S = 20.0    # for the integer program; past it, its best answer so far


@dataclass
class _Group:
    values: list = field(default_factory=list)
    fixed: bool = False
    candidates: list = field(default_factory=list)  # [propagated, moved...]
    first: int = 0  # its first column in the integer program


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

    def __init__(self, module: ir.Operation, table: RuleTable, model: CollectiveTimeModel):
        self.module = module
        self.state = ShardingState(module)
        self.cache = PlanCache(table, choose_plan)
        self.model = model
        self.report: dict = {}

    # -- driver --------------------------------------------------------------------------
    def run(self) -> None:
        start = _time.perf_counter()
        funcs = [op.operation for op in self.module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"]
        manual = _called_in_manual_computations(funcs)
        ops = [op for func in funcs if ir.StringAttr(func.attributes["sym_name"]).value
               not in manual for op in program_ops(func)]
        computed = [op for op in ops if self._computed(op)]
        self.mesh = self._program_mesh()
        self._unannotated: dict = {}  # unannotated values: replicated on self.mesh
        computed_set = set(computed)
        returns = [op for op in ops if op.name in _BOUNDARY_USERS]
        values, fixed = self._values(computed, computed_set)
        groups, group_of = self._groups(computed, values, fixed)
        self._groups_ref = groups
        movable = [g for g in groups if len(g.candidates) > 1]
        self.report = {"ops": len(ops), "values": len(values), "groups": len(groups),
                       "movable_groups": len(movable), "changed_values": 0}
        if not movable:
            return
        terms = self._terms(computed, returns, funcs, group_of)
        choice, before, after = self._solve(groups, terms)
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
                changed += 1
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

    def _computed(self, op: ir.Operation) -> bool:
        """Ops placed by a sharding rule (not structural, not a source, not sdy's)."""
        name = op.name
        if name in STRUCTURAL_REGION_OPS or name in SOURCE_OPS or name.startswith(
                ("sdy.", "func.")):
            return False
        if self.cache.caching_of(name) == "never":
            return False
        # Inside a manual computation, shardings name only the free axes: left alone.
        parent = op.parent
        while parent is not None and parent.name != "func.func":
            if parent.name == "sdy.manual_computation":
                return False
            parent = parent.parent
        return True

    def _values(self, computed, computed_set):
        """The results of computed ops, and which of them must stay as they are."""
        values, fixed = [], set()
        for op in computed:
            if any(isinstance(v.type, ir.RankedTensorType) and 0 in v.type.shape
                   for v in list(op.operands) + list(op.results)):
                # Empty values move nothing: every placement costs the same latency
                # guesses, so the op and its values keep propagation's answer.
                fixed.update(op.operands)
                fixed.update(op.results)
        for op in computed:
            block = op.block
            for result in op.results:
                values.append(result)
                s = self.state.of(result)
                if s is None and self.mesh is not None and isinstance(
                        result.type, ir.RankedTensorType):
                    s = self.cache.intern(TensorSharding.replicated_on(
                        self.mesh[0], len(result.type.shape), self.mesh[1]))
                    self._unannotated[result] = s
                if result in fixed or not _movable(s):
                    fixed.add(result)
                    continue
                for use in result.uses:
                    user = use.owner
                    user = getattr(user, "operation", user)
                    if user.block != block or (user not in computed_set
                                               and user.name not in _BOUNDARY_USERS):
                        fixed.add(result)
                        break
        return values, fixed

    def _groups(self, computed, values, fixed):
        """Values an elementwise op joins (equal shapes, equal shardings), as groups."""
        uf = _UnionFind()
        value_set = set(values)
        for op in computed:
            if self.cache.caching_of(op.name) != "shapes" or len(op.results) != 1:
                continue
            result = op.results[0]
            shape = tuple(result.type.shape) if isinstance(result.type,
                                                           ir.RankedTensorType) else None
            have = self._sharding(result)
            for operand in op.operands:
                if operand in value_set and isinstance(operand.type, ir.RankedTensorType) \
                        and tuple(operand.type.shape) == shape and same_layout(
                            self._sharding(operand), have):
                    uf.union(result, operand)
        by_root: dict = {}
        for value in values:
            by_root.setdefault(uf.find(value), []).append(value)
        groups, group_of = [], {}
        for members in by_root.values():
            group = _Group(members, any(v in fixed for v in members))
            s = self._sharding(members[0])
            group.candidates = [s] if group.fixed else _candidates(
                self.cache.intern(s), tuple(members[0].type.shape), self.cache)
            for v in members:
                group_of[v] = len(groups)
            groups.append(group)
        return groups, group_of

    # -- costs ------------------------------------------------------------------------------
    def _terms(self, computed, returns, funcs, group_of):
        """Per op: (its groups with more than one candidate, {combination: seconds})."""
        terms = []
        state = self.state
        sources = set()  # operands an iota or constant makes (remade, never moved)
        for op in computed:
            for v in op.operands:
                if isinstance(v, ir.OpResult) and v.owner.operation.name in SOURCE_OPS:
                    sources.add(v)
        for op in computed:
            name = op.name
            operands = list(op.operands)
            results = list(op.results)
            have_operands = [self._sharding(v) for v in operands]
            have_results = state.results_of(op, results, name)
            have_results = [self._unannotated.get(r, s) for r, s in zip(results, have_results)]
            template = next((s for s in have_results + have_operands if s is not None), None)
            if template is None or any(
                    s is not None and s.mesh != template.mesh and not s.mesh.is_empty
                    for s in have_results + have_operands):
                continue
            slots = []  # (is_result, index, group)
            for i, v in enumerate(operands):
                g = group_of.get(v)
                if g is not None and len(self._group_candidates(g)) > 1:
                    slots.append((False, i, g))
            for i, v in enumerate(results):
                g = group_of.get(v)
                if g is not None and len(self._group_candidates(g)) > 1:
                    slots.append((True, i, g))
            distinct = list(dict.fromkeys(g for _, _, g in slots))
            if not distinct:
                continue
            table = {}
            for combo in _combinations([len(self._group_candidates(g)) for g in distinct]):
                pick = dict(zip(distinct, combo))
                ops_s = list(have_operands)
                res_s = list(have_results)
                for is_result, i, g in slots:
                    cand = self._group_candidates(g)[pick[g]]
                    if is_result:
                        res_s[i] = cand
                    else:
                        ops_s[i] = cand
                plan = self.cache.plan(op, name, operands, results, ops_s, res_s,
                                       template, sources)
                table[combo] = plan_time(op, ops_s, plan, res_s, self.model)
            terms.append((distinct, table))
        funcs_by_name = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in funcs}
        for ret in returns:
            for i, v in enumerate(ret.operands):
                g = group_of.get(v)
                if g is None or len(self._group_candidates(g)) < 2:
                    continue
                want = self._wanted_at_boundary(ret, i, funcs_by_name)
                table = {}
                for k, cand in enumerate(self._group_candidates(g)):
                    # Unannotated on the other side: made whole (reshard_to_whole_or).
                    target = want if want is not None else TensorSharding.replicated_on(
                        cand.mesh, cand.rank, cand.mesh_name)
                    table[(k,)] = _reshard_time(cand, target, v.type, self.model)
                terms.append(([g], table))
        return terms

    def _wanted_at_boundary(self, user: ir.Operation, index: int, funcs_by_name):
        """The sharding a func.return's operand is resharded to (its function's result
        sharding), or a func.call's (its callee's argument sharding); None: whole."""
        if user.name == "func.return":
            func = user.parent
            while func is not None and func.name != "func.func":
                func = func.parent
            return self.state.func_result_sharding(func, index) if func is not None else None
        callee = funcs_by_name.get(ir.FlatSymbolRefAttr(user.attributes["callee"]).value)
        return self.state.func_arg_sharding(callee, index) if callee is not None else None

    def _group_candidates(self, g: int):
        return self._groups_ref[g].candidates

    # -- the integer program ----------------------------------------------------------------
    def _solve(self, groups, terms):
        """(chosen candidate per group, or None; estimated seconds of propagation's
        choice; of the chosen one)."""
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_matrix

        column = 0
        for g in groups:
            g.first = column
            column += len(g.candidates)
        costs = [0.0] * column
        rows, cols, vals, lower, upper = [], [], [], [], []
        row = 0
        for g in groups:  # one candidate per group
            for k in range(len(g.candidates)):
                rows.append(row)
                cols.append(g.first + k)
                vals.append(1.0)
            lower.append(1.0)
            upper.append(1.0)
            row += 1
        baseline = 0.0
        for distinct, table in terms:
            baseline += table.get(tuple([0] * len(distinct)), 0.0)
            if len(distinct) == 1:
                g = groups[distinct[0]]
                for (k,), seconds in table.items():
                    costs[g.first + k] += seconds
                continue
            first = column
            combos = list(table)
            column += len(combos)
            costs.extend(table[c] for c in combos)
            # sum over combinations with group g at candidate k = x[g, k], each g, k
            for position, gi in enumerate(distinct):
                g = groups[gi]
                for k in range(len(g.candidates)):
                    rows.append(row)
                    cols.append(g.first + k)
                    vals.append(-1.0)
                    for j, c in enumerate(combos):
                        if c[position] == k:
                            rows.append(row)
                            cols.append(first + j)
                            vals.append(1.0)
                    lower.append(0.0)
                    upper.append(0.0)
                    row += 1
        scale = 1e6  # microseconds: better conditioned than seconds
        matrix = coo_matrix((vals, (rows, cols)), shape=(row, column)).tocsr()
        result = milp(np.array(costs) * scale, integrality=np.ones(column),
                      bounds=Bounds(0, 1),
                      constraints=LinearConstraint(matrix, lower, upper),
                      options={"time_limit": TIME_LIMIT_S, "disp": False})
        self.report.update(columns=column, rows=row, solver_status=int(result.status),
                           solver_message=str(result.message))
        if result.x is None:
            return None, baseline, baseline
        x = result.x
        choice = []
        for g in groups:
            picks = x[g.first:g.first + len(g.candidates)]
            choice.append(int(np.argmax(picks)))
        return choice, baseline, float(result.fun) / scale


def _called_in_manual_computations(funcs) -> set[str]:
    """Functions called (directly or not) from inside an sdy.manual_computation: their
    values are per-device code over the manual axes, left alone like the body's."""
    by_name = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in funcs}
    found: set[str] = set()
    todo: list[str] = []

    def calls_in(op, inside: bool):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    inner = inner.operation
                    now = inside or inner.name == "sdy.manual_computation"
                    if now and inner.name == "func.call":
                        todo.append(ir.FlatSymbolRefAttr(inner.attributes["callee"]).value)
                    calls_in(inner, now)

    for func in funcs:
        calls_in(func, False)
    while todo:
        name = todo.pop()
        if name in found or name not in by_name:
            continue
        found.add(name)
        calls_in(by_name[name], True)
    return found


def _movable(s: TensorSharding | None) -> bool:
    """A sharding this pass may change: whole axes, nothing partial, on a mesh of
    several devices."""
    if s is None or s.unreduced or s.mesh.is_empty or getattr(s.mesh, "is_maximal", False):
        return False
    return all(ref.sub is None for d in s.dims for ref in d.axes) and s.rank > 0


def _candidates(s: TensorSharding, shape, cache: PlanCache) -> list:
    """The propagated sharding, then each sharded dim's axes moved whole onto another
    dim they divide, and each mesh axis the value does not use added to a dim it
    divides (target dims nearest the major end first)."""
    found = [s]
    sizes = s.mesh.axes
    used = {ref.name for d in s.dims for ref in d.axes}
    moves = []  # (target dim, source dim or -1, axes)
    for src, dim in enumerate(s.dims):
        if dim.axes:
            moves += [(dst, src, tuple(dim.axes)) for dst in range(s.rank) if dst != src]
    for name, size in sizes:
        if name not in used and size > 1:
            moves += [(dst, -1, (AxisRef(name),)) for dst in range(s.rank)]
    for dst, src, axes in sorted(moves, key=lambda m: (m[0], m[1] < 0)):
        moving = math.prod(_size(ref, sizes) for ref in axes)
        shards = math.prod(_size(ref, sizes) for ref in s.dims[dst].axes) * moving
        if shape[dst] % shards:
            continue
        dims = [list(d.axes) for d in s.dims]
        dims[dst] = dims[dst] + list(axes)
        if src >= 0:
            dims[src] = []
        new = cache.intern(plain(s, tuple(DimSharding(tuple(a), True) for a in dims)))
        if all(not same_layout(new, f) for f in found):
            found.append(new)
        if len(found) >= MAX_CANDIDATES:
            break
    return found


def _size(ref, sizes) -> int:
    from ..sharding import axis_algebra as aa
    return aa.size(ref, sizes)


def _combinations(counts):
    total = math.prod(counts)
    if total <= MAX_COMBINATIONS:
        yield from itertools.product(*[range(n) for n in counts])
        return
    base = [0] * len(counts)
    yield tuple(base)
    for position, n in enumerate(counts):
        for k in range(1, n):
            combo = list(base)
            combo[position] = k
            yield tuple(combo)


def _reshard_time(have, want, value_type, model) -> float:
    from .plan_choice import reshard_time
    return reshard_time(have, want, value_type, model)
