"""The choice of shardpy-choose-shardings (choose_shardings.py) as a program: candidate
shardings per group of values, the combinations an op is costed under, and three ways to
pick one candidate per group:

  eliminate        exact, by variable elimination (min-sum over the groups, one group at
                   a time, the cheapest first): programs whose ops tie few groups together
                   (every model of bench/models: tables of at most ~5,000 entries) are
                   solved in milliseconds, at any size, without an external solver;
  integer_program  exact, HiGHS through scipy: where elimination would build a table of
                   more than MAX_TABLE entries;
  descend          local search, where that finds no answer in TIME_LIMIT_S.

A term is (its groups, {combination of their candidates: seconds}); a combination a
term does not list is not allowed (it costs infinity).
"""
from __future__ import annotations

import heapq
import itertools
import math

import numpy as np

from ..sharding import axis_algebra as aa
from ..sharding.model import AxisRef, DimSharding, TensorSharding
from .layouts import plain
from .plan_cache import PlanCache, same_layout

MAX_CANDIDATES = 4     # per group, the propagated sharding included
MAX_COMBINATIONS = 256  # per op; beyond it, combinations moving one group at a time
TIME_LIMIT_S = 5.0     # for the integer program; past it, local search
MAX_TABLE = 1 << 16    # entries of the largest table elimination may build
# Candidates within TIE (relative) or RESOLUTION_S of the cheapest count as equal: the
# resolution each op's plans are ranked at (reshard_planner.nanoseconds, before bytes).
# Under test/Inputs/bytes_only_profile.json (every time ~1e-27 s: nothing measurable)
# the choice then keeps propagation's shardings and each op's ranking decides by bytes.
TIE = 1e-9
RESOLUTION_S = 1e-9
DESCENT_SWEEPS = 8


def candidates(s: TensorSharding, shape, cache: PlanCache) -> list:
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
        moving = math.prod(axis_size(ref, sizes) for ref in axes)
        shards = math.prod(axis_size(ref, sizes) for ref in s.dims[dst].axes) * moving
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


def axis_size(ref, sizes) -> int:
    return aa.size(ref, sizes)


def combinations(counts):
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


def integer_program(groups, terms, report: dict):
    """The exact choice: a 0/1 column per group and candidate (one per group), one per
    op term and combination of its groups' candidates, tied to the groups' columns (the
    local polytope, exact as an integer program); solved by HiGHS through scipy within
    TIME_LIMIT_S. Returns (choice per group or None, propagation's estimated seconds,
    the choice's); what the solver said goes in `report`."""
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
    report.update(columns=column, rows=row, solver="integer program",
                       solver_status=int(result.status),
                       solver_message=str(result.message))
    if result.x is None:
        return None, baseline, baseline
    x = result.x
    choice = []
    for g in groups:
        picks = x[g.first:g.first + len(g.candidates)]
        choice.append(int(np.argmax(picks)))
    return choice, baseline, float(result.fun) / scale


def eliminate(groups, terms, report: dict):
    """The exact choice by variable elimination: each group in turn (the one whose
    table, over it and the groups it shares a term with, is smallest) is minimized out
    of the sum of its terms, leaving one term over its neighbours; then every group is
    set, last eliminated first, to its best candidate given the others. Cost: linear in
    the number of groups times the largest table (the program's induced width: ops tie
    few groups together and models repeat layer by layer). Ties go to the lower
    candidate, so propagation's sharding stays unless another is cheaper.

    Returns (choice per group, propagation's estimated seconds, the choice's), or None
    where a table would exceed MAX_TABLE entries (the integer program then)."""
    sizes = [len(g.candidates) for g in groups]
    baseline = 0.0
    factors = _Factors(sizes)
    dense_of: dict = {}  # id(table) -> its dense form (ops alike share one table)
    for distinct, table in terms:
        baseline += table.get(tuple([0] * len(distinct)), 0.0)
        shape = tuple(sizes[g] for g in distinct)
        dense = dense_of.get(id(table))
        if dense is None or dense.shape != shape:
            if math.prod(shape) > MAX_TABLE:
                return None
            dense = dense_of[id(table)] = np.full(shape, np.inf)
            for combo, seconds in table.items():
                dense[combo] = seconds
        factors.add(tuple(distinct), dense)  # (read, never written: shared safely)
    steps, widest = [], 1
    heap = [(factors.size(g), g) for g in factors.unary.keys() | factors.of_group]
    heapq.heapify(heap)
    done = set()
    while heap:
        size, g = heapq.heappop(heap)
        if g in done:
            continue
        now = factors.size(g)
        if now != size:  # stale: its neighbours changed since it was pushed
            heapq.heappush(heap, (now, g))
            continue
        if size > MAX_TABLE:
            return None
        widest = max(widest, size)
        rest, joint = factors.take(g)
        best = joint.min(axis=-1)
        near = np.maximum(TIE * np.abs(best), RESOLUTION_S)
        pick = np.argmax(joint <= (best + near)[..., None], axis=-1)
        steps.append((g, rest, pick))
        done.add(g)
        if rest:
            factors.add(rest, best)
        for x in rest:
            heapq.heappush(heap, (factors.size(x), x))
    choice = [0] * len(groups)
    for g, rest, pick in reversed(steps):
        choice[g] = int(pick[tuple(choice[x] for x in rest)])
    total = sum(table.get(tuple(choice[x] for x in distinct), math.inf)
                for distinct, table in terms)
    report.update(solver="elimination", largest_table=widest)
    return choice, baseline, total


class _Factors:
    """The terms as dense tables during elimination: over one group (`unary`, summed)
    or several (`scopes`/`tables` by id, `of_group`: the ids over each group)."""

    def __init__(self, sizes):
        self.sizes = sizes
        self.unary: dict[int, np.ndarray] = {}
        self.scopes: dict[int, tuple] = {}
        self.tables: dict[int, np.ndarray] = {}
        self.of_group: dict[int, set] = {}
        self.ids = itertools.count()

    def add(self, scope: tuple, table: np.ndarray) -> None:
        if len(scope) == 1:
            g = scope[0]
            self.unary[g] = self.unary[g] + table if g in self.unary else table
            return
        f = next(self.ids)
        self.scopes[f], self.tables[f] = scope, table
        for x in scope:
            self.of_group.setdefault(x, set()).add(f)

    def size(self, g: int) -> int:
        """Entries of the table eliminating g builds (over g and its neighbours), or
        MAX_TABLE + 1 where it is larger: counted no further, since a group every op
        reads (a mask, a position table) meets thousands of terms until its
        neighbours are gone."""
        sizes = self.sizes
        around = {g}
        total = sizes[g]
        for f in self.of_group.get(g, ()):
            for x in self.scopes[f]:
                if x not in around:
                    around.add(x)
                    total *= sizes[x]
                    if total > MAX_TABLE:
                        return MAX_TABLE + 1
        return total

    def take(self, g: int):
        """Removes g's terms; returns (its neighbours, their sum as one table over the
        neighbours and g, g's axis last)."""
        sizes = self.sizes
        rest = tuple(sorted({x for f in self.of_group.get(g, ()) for x in self.scopes[f]}
                            - {g}))
        where = {x: i for i, x in enumerate(rest + (g,))}
        joint = np.zeros(tuple(sizes[x] for x in rest) + (sizes[g],))
        if g in self.unary:
            joint = joint + self.unary.pop(g)
        for f in self.of_group.pop(g, ()):
            scope, table = self.scopes.pop(f), self.tables.pop(f)
            for x in scope:
                if x != g:
                    self.of_group[x].discard(f)
            shape = [1] * len(where)
            for x in scope:
                shape[where[x]] = sizes[x]
            # the table's axes in the joint's order, then broadcast over the others
            # (the order by plain Python: numpy's calls cost more than tiny tables)
            order = sorted(range(len(scope)), key=lambda i: where[scope[i]])
            if order != list(range(len(scope))):
                table = np.transpose(table, order)
            joint = joint + table.reshape(shape)
        return rest, joint


def descend(groups, terms) -> tuple[list[int], float]:
    """Local search from propagation's choice: each group in turn takes its cheapest
    candidate given the others' (combinations a term does not list cost infinity),
    sweeping until nothing improves (at most DESCENT_SWEEPS). Returns the choice and
    its estimated seconds."""
    choice = [0] * len(groups)
    touching: list[list[tuple[int, int]]] = [[] for _ in groups]  # group -> (term, pos)
    for t, (distinct, _) in enumerate(terms):
        for position, g in enumerate(distinct):
            touching[g].append((t, position))

    def local(g: int, k: int) -> float:
        total = 0.0
        for t, position in touching[g]:
            distinct, table = terms[t]
            combo = tuple(k if i == position else choice[x] for i, x in enumerate(distinct))
            total += table.get(combo, math.inf)
        return total

    for _ in range(DESCENT_SWEEPS):
        improved = False
        for g, group in enumerate(groups):
            if len(group.candidates) < 2:
                continue
            current = local(g, choice[g])
            best_k, best = choice[g], current
            for k in range(len(group.candidates)):
                if k != choice[g]:
                    cost = local(g, k)
                    if cost < best * (1 - 1e-9):
                        best_k, best = k, cost
            if best_k != choice[g]:
                choice[g] = best_k
                improved = True
        if not improved:
            break
    total = sum(table.get(tuple(choice[x] for x in distinct), math.inf)
                for distinct, table in terms)
    return choice, total
