"""The choice of shardpy-choose-shardings (choose_shardings.py) as a program: candidate
shardings per group of values, the combinations an op is costed under, and the two ways
to pick one candidate per group: the exact integer program (HiGHS through scipy) and a
local search for when that finds no answer in time.
"""
from __future__ import annotations

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
