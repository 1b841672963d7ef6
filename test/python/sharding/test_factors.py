"""Unit tests for factor projection (python/shardpy/sharding/factors.py: project /
unproject), the step under shardpy-propagate that maps dim shardings to factor shardings
and back.

Expectations are written from Shardy's definitions, not from the code: a dim holding
factors [i, j] is split i major, j minor, so the major factor takes the major part of the
dim's axes, as much as divides its size; an axis ref "x":(2)4 of an axis of size 8 covers
the multiplicative interval [2, 8).
"""
from __future__ import annotations

import math
import random

import pytest

from shardpy.sharding import axis_algebra as aa
from shardpy.sharding.factors import project, unproject
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding


def ax(name: str, pre: int | None = None, size: int | None = None) -> AxisRef:
    """`ax("x")` is "x"; `ax("x", 2, 4)` is "x":(2)4."""
    return AxisRef(name) if pre is None else AxisRef(name, (pre, size))


# --------------------------------------------------------------------------- projection


def tensor(mesh: Mesh, *dims: DimSharding, replicated=(), unreduced=()) -> TensorSharding:
    return TensorSharding(mesh, tuple(dims), tuple(replicated), tuple(unreduced), "mesh")


def dim(*refs, closed: bool = True) -> DimSharding:
    return DimSharding(tuple(r if isinstance(r, AxisRef) else AxisRef(r) for r in refs), closed)


def factor_axes(projected, f):
    return projected.factors[f].axes


def test_project_split_dim_creates_sub_axes():
    # 32 -> [ij] with i=4, j=8 on "x"=8: i takes "x":(1)4, j (minor-most) "x":(4)2.
    mesh = Mesh((("x", 8),))
    s = tensor(mesh, dim("x"))
    p = project(((0, 1),), s, (4, 8), mesh.axes)
    assert factor_axes(p, 0) == (ax("x", 1, 4),)
    assert factor_axes(p, 1) == (ax("x", 4, 2),)
    assert not p.factors[0].overflow and not p.factors[1].overflow
    assert p.factors[1].minor_most and not p.factors[0].minor_most
    assert unproject(p, ((0, 1),), (4, 8), s, s, mesh.axes) == s


def test_project_compound_dim_two_axes():
    # [ij] with i=2, j=16 on ["x"=4, "y"=4]: i takes "x":(1)2; j "x":(2)2 then "y".
    mesh = Mesh((("x", 4), ("y", 4)))
    s = tensor(mesh, dim("x", "y"), dim(closed=False))
    mapping = ((0, 1), (2,))
    p = project(mapping, s, (2, 16, 3), mesh.axes)
    assert factor_axes(p, 0) == (ax("x", 1, 2),)
    assert factor_axes(p, 1) == (ax("x", 2, 2), ax("y"))
    assert factor_axes(p, 2) == ()
    assert p.factors[0].closed and p.factors[1].closed and not p.factors[2].closed
    assert unproject(p, mapping, (2, 16, 3), s, s, mesh.axes) == s


def test_project_merged_dims_from_sub_axes():
    # [ij] with i=4, j=8 sharded ["x":(1)4, ...] on "x"=8: the sub-axis fills i exactly.
    mesh = Mesh((("x", 8), ("y", 4)))
    s = tensor(mesh, dim(ax("x", 1, 4), "y"))
    p = project(((0, 1),), s, (4, 8), mesh.axes)
    assert factor_axes(p, 0) == (ax("x", 1, 4),)
    assert factor_axes(p, 1) == (ax("y"),)
    assert unproject(p, ((0, 1),), (4, 8), s, s, mesh.axes) == s


def test_project_overflow_when_axis_does_not_divide_major_factor():
    # [ij] with i=6, j=4 on "x"=4: only "x":(1)2 divides i; "x":(2)2 overflows and the
    # minor factor j is closed behind it (nothing may shard it).
    mesh = Mesh((("x", 4),))
    s = tensor(mesh, dim("x", closed=False))
    p = project(((0, 1),), s, (6, 4), mesh.axes)
    assert factor_axes(p, 0) == (ax("x", 1, 2),)
    assert p.factors[0].overflow == (ax("x", 2, 2),)
    assert factor_axes(p, 1) == () and p.factors[1].closed
    assert not p.factors[0].closed
    back = unproject(p, ((0, 1),), (6, 4), s, s, mesh.axes)
    assert back == s  # overflow merged back into "x", the dim still open


def test_project_factors_behind_overflow():
    # [ijk] with i=6, j=2, k=2 on "x"=4: i overflows; j, the next factor, is closed and
    # empty; k is not projected at all (Shardy's buildTensorFactorShardings stops there
    # too), so this tensor neither takes nor constrains k.
    mesh = Mesh((("x", 4),))
    s = tensor(mesh, dim("x", closed=False))
    p = project(((0, 1, 2),), s, (6, 2, 2), mesh.axes)
    assert p.factors[0].overflow == (ax("x", 2, 2),)
    assert p.factors[1].axes == () and p.factors[1].closed
    assert 2 not in p.factors
    assert unproject(p, ((0, 1, 2),), (6, 2, 2), s, s, mesh.axes) == s


def test_project_coprime_major_factor_overflows_everything():
    # [ij] with i=3, j=8 on "x"=2: nothing of x divides 3, all of it overflows.
    mesh = Mesh((("x", 2),))
    s = tensor(mesh, dim("x"))
    p = project(((0, 1),), s, (3, 8), mesh.axes)
    assert factor_axes(p, 0) == ()
    assert p.factors[0].overflow == (ax("x"),)
    assert unproject(p, ((0, 1),), (3, 8), s, s, mesh.axes) == s


def test_project_minor_factor_takes_the_rest_even_if_not_divisible():
    mesh = Mesh((("x", 4),))
    s = tensor(mesh, dim("x"))
    p = project(((0,),), s, (6,), mesh.axes)
    assert factor_axes(p, 0) == (ax("x"),) and not p.factors[0].overflow
    assert unproject(p, ((0,),), (6,), s, s, mesh.axes) == s


def test_project_keeps_replicated_and_unreduced_as_blocked():
    mesh = Mesh((("x", 2), ("y", 4)))
    s = tensor(mesh, dim(closed=False), dim("x"), replicated=(ax("y", 1, 2),),
               unreduced=(ax("y", 2, 2),))
    p = project(((0,), (1,)), s, (8, 16), mesh.axes)
    assert set(p.blocked_axes) == {ax("y", 1, 2), ax("y", 2, 2)}
    assert unproject(p, ((0,), (1,)), (8, 16), s, s, mesh.axes) == s


def test_unproject_stops_at_a_partly_sharded_major_factor():
    # Growing the minor factor j while i is only partly sharded would need a strided
    # view of the dim: j's axes are not written back.
    mesh = Mesh((("x", 2), ("y", 4)))
    s = tensor(mesh, dim("x"))
    p = project(((0, 1),), s, (4, 4), mesh.axes)
    assert factor_axes(p, 0) == (ax("x"),)
    p.factors[1].axes = (ax("y"),)
    assert unproject(p, ((0, 1),), (4, 4), s, s, mesh.axes) == s


def test_unproject_without_old_sharding_uses_template_mesh():
    mesh = Mesh((("x", 2), ("y", 4)))
    template = tensor(mesh, dim("x"))
    p = project(((0,), (1,)), None, (8, 16), mesh.axes)
    assert all(not fs.axes and not fs.closed for fs in p.factors.values())
    p.factors[1].axes = (ax("y"),)
    out = unproject(p, ((0,), (1,)), (8, 16), None, template, mesh.axes)
    assert out == TensorSharding(mesh, (DimSharding((), False), DimSharding((ax("y"),), False)),
                                 (), (), "mesh")


# --------------------------------------------------------------------------- property


def _random_mesh(rng: random.Random) -> Mesh:
    names = ["x", "y", "z"][:rng.randint(1, 3)]
    return Mesh(tuple((n, rng.choice([2, 3, 4, 6, 8])) for n in names))


def _pieces(size: int, rng: random.Random) -> list[tuple[int, int]]:
    """Cut an axis of `size` into consecutive (pre, size) pieces, major to minor."""
    out, pre, left = [], 1, size
    while left > 1:
        divisors = [d for d in range(2, left + 1) if left % d == 0]
        d = rng.choice(divisors)
        out.append((pre, d))
        pre, left = pre * d, left // d
    return out


def _random_sharding(mesh: Mesh, rank: int, rng: random.Random) -> TensorSharding:
    dims: list[list[AxisRef]] = [[] for _ in range(rank)]
    for name, size in mesh.axes:
        for pre, sub in _pieces(size, rng):
            target = rng.randrange(rank + 1)
            if target == rank:
                continue  # this piece stays unused
            ref = AxisRef(name) if sub == size else AxisRef(name, (pre, sub))
            dims[target].insert(rng.randrange(len(dims[target]) + 1), ref)
    out = []
    for refs in dims:
        canonical: list[AxisRef] = []
        for ref in refs:  # sdy writes consecutive sub-axes merged
            aa.append_or_merge(canonical, ref, mesh.axes)
        out.append(DimSharding(tuple(canonical), rng.random() < 0.5))
    return TensorSharding(mesh, tuple(out), (), (), "mesh")


def _random_mapping(rank: int, rng: random.Random):
    mapping, sizes = [], []
    for _ in range(rank):
        dim_factors = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            dim_factors.append(len(sizes))
            sizes.append(rng.choice([1, 2, 3, 4, 6, 8, 12, 16]))
        mapping.append(tuple(dim_factors))
    return tuple(mapping), tuple(sizes)


@pytest.mark.parametrize("seed", range(20))
def test_unproject_of_project_is_identity(seed):
    rng = random.Random(seed)
    for _ in range(100):
        mesh = _random_mesh(rng)
        rank = rng.randint(1, 3)
        mapping, sizes = _random_mapping(rank, rng)
        s = _random_sharding(mesh, rank, rng)
        s.validate(tuple(math.prod(sizes[f] for f in d) for d in mapping))
        p = project(mapping, s, sizes, mesh.axes)
        # Every axis of the sharding lands in exactly one place, in order.
        for d, dim_factors in enumerate(mapping):
            placed = []
            for f in dim_factors:
                fs = p.factors.get(f)  # absent: behind an overflowing factor (as in Shardy)
                if fs is not None:
                    placed += list(fs.axes) + list(fs.overflow)
            merged: list[AxisRef] = []
            for ref in placed:
                aa.append_or_merge(merged, ref, mesh.axes)
            assert tuple(merged) == s.dims[d].axes, (mapping, sizes, s)
        assert unproject(p, mapping, sizes, s, s, mesh.axes) == s, (mapping, sizes, s)
