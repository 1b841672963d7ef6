"""Unit tests for the pieces under shardpy-propagate: the sub-axis algebra
(python/shardpy/sharding/axis_algebra.py) and factor projection (factor_propagation.project /
unproject).

Expectations are written from Shardy's definitions, not from the code: an axis ref
covers the multiplicative interval [pre, pre*size) of its axis ("x":(2)4 of an axis of
size 8 covers [2, 8)); a dim holding factors [i, j] is split i major, j minor, so the
major factor takes the major part of the dim's axes, as much as divides its size.
"""
from __future__ import annotations

import math
import random

import pytest

from shardpy.sharding import axis_algebra as aa
from shardpy.sharding.factors import project, unproject
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding

X8_Y4 = (("x", 8), ("y", 4))


def ax(name: str, pre: int | None = None, size: int | None = None) -> AxisRef:
    """`ax("x")` is "x"; `ax("x", 2, 4)` is "x":(2)4."""
    return AxisRef(name) if pre is None else AxisRef(name, (pre, size))


# --------------------------------------------------------------------------- axis algebra


@pytest.mark.parametrize("ref, expected", [
    (ax("x"), 8), (ax("y"), 4), (ax("x", 1, 2), 2), (ax("x", 2, 4), 4), (ax("x", 4, 2), 2),
])
def test_size(ref, expected):
    assert aa.size(ref, X8_Y4) == expected


@pytest.mark.parametrize("a, b, expected", [
    (ax("x", 1, 2), ax("x"), True),          # same start, ends first
    (ax("x", 1, 2), ax("x", 1, 4), True),
    (ax("x"), ax("x"), True),                # equal counts as a prefix
    (ax("x", 1, 4), ax("x", 1, 4), True),
    (ax("x", 1, 4), ax("x", 1, 2), False),   # longer than b
    (ax("x", 2, 2), ax("x"), False),         # does not start where b starts
    (ax("x", 2, 2), ax("x", 2, 4), True),
    (ax("x", 1, 2), ax("y"), False),         # other axis
    (ax("y", 1, 2), ax("y"), True),
])
def test_prefix_of(a, b, expected):
    assert aa.prefix_of(a, b, X8_Y4) is expected


@pytest.mark.parametrize("a, b, expected", [
    (ax("x"), ax("x", 2, 2), True),
    (ax("x"), ax("x", 4, 2), True),
    (ax("x", 1, 4), ax("x", 2, 2), True),
    (ax("x", 2, 4), ax("x", 4, 2), True),
    (ax("x", 2, 2), ax("x", 1, 4), False),
    (ax("x", 1, 2), ax("x", 2, 2), False),   # neighbours, no containment
    (ax("x", 2, 2), ax("x", 2, 2), True),
    (ax("x"), ax("y", 1, 2), False),
])
def test_contains(a, b, expected):
    assert aa.contains(a, b, X8_Y4) is expected


@pytest.mark.parametrize("a, b, expected", [
    (ax("x", 1, 2), ax("x", 2, 2), False),   # [1,2) and [2,4) only touch
    (ax("x", 1, 4), ax("x", 2, 4), True),    # [1,4) and [2,8)
    (ax("x"), ax("x", 4, 2), True),
    (ax("x", 1, 2), ax("x", 4, 2), False),
    (ax("x"), ax("y"), False),
    (ax("y"), ax("y"), True),
])
def test_overlaps(a, b, expected):
    assert aa.overlaps(a, b, X8_Y4) is expected
    assert aa.overlaps(b, a, X8_Y4) is expected


@pytest.mark.parametrize("a, b, expected", [
    (ax("x"), ax("x", 4, 2), ax("x", 1, 4)),       # keep [1,4) of [1,8)
    (ax("x"), ax("x", 2, 2), ax("x", 1, 2)),
    (ax("x"), ax("x", 1, 2), None),                # overlap from the start: nothing left
    (ax("x", 2, 4), ax("x", 4, 2), ax("x", 2, 2)),
    (ax("x", 2, 4), ax("x", 1, 2), ax("x", 2, 4)),  # no overlap: all of a
    (ax("x"), ax("y"), ax("x")),
    (ax("x", 4, 2), ax("x"), None),
])
def test_prefix_without_overlap(a, b, expected):
    assert aa.prefix_without_overlap(a, b, X8_Y4) == expected


A6_B12 = (("a", 6), ("b", 12))


@pytest.mark.parametrize("a, b, expected", [
    (ax("a", 1, 2), ax("a", 2, 3), True),    # 6 = 2*3, both digits
    (ax("a", 1, 2), ax("a", 3, 2), False),   # major of 2*3, minor of 3*2: not independent
    (ax("a", 1, 3), ax("a", 2, 3), False),   # [1,3) and [2,6): 2 does not divide 3
    (ax("a", 1, 3), ax("a", 3, 2), True),
    (ax("a"), ax("a", 3, 2), True),           # overlapping, yet in one decomposition
    (ax("b", 1, 2), ax("b", 6, 2), True),     # 12 = 2*3*2: a gap of 3 between them
    (ax("b", 1, 4), ax("b", 6, 2), False),    # 4 and 6 do not divide each other
    (ax("b", 2, 3), ax("b", 1, 4), False),
    (ax("a", 1, 2), ax("b", 3, 2), True),     # other axes always coexist
])
def test_can_coexist_means_one_decomposition(a, b, expected):
    assert aa.can_coexist(a, b, A6_B12) == expected
    assert aa.can_coexist(b, a, A6_B12) == expected
    assert a.can_coexist(b, Mesh(A6_B12)) == expected
    assert aa.conflicts(a, b, A6_B12) == (aa.overlaps(a, b, A6_B12) or not expected)


@pytest.mark.parametrize("a, b, expected", [
    (ax("a", 1, 2), ax("a", 3, 2), None),             # no prefix of "a":(1)2 fits
    (ax("a", 3, 2), ax("a", 1, 2), None),
    (ax("a", 1, 3), ax("a", 2, 3), None),
    (ax("a"), ax("a", 3, 2), ax("a", 1, 3)),          # nested: as before
    (ax("b"), ax("b", 6, 2), ax("b", 1, 6)),
    (ax("b"), ax("b", 4, 3), ax("b", 1, 4)),
    (ax("b", 1, 6), ax("b", 1, 4), None),              # overlaps at its start
    (ax("b"), ax("b", 2, 3), ax("b", 1, 2)),
])
def test_prefix_without_overlap_leaves_no_conflict(a, b, expected):
    got = aa.prefix_without_overlap(a, b, A6_B12)
    assert got == expected
    if got is not None:
        assert not aa.conflicts(got, b, A6_B12) and aa.prefix_of(got, a, A6_B12)


def test_chain_of_refs():
    assert aa.chain([ax("b", 1, 2), ax("b", 2, 3), ax("b", 6, 2)], A6_B12)
    assert aa.chain([ax("b", 1, 2), ax("b", 4, 3)], A6_B12)  # 2 | 4: a gap of 2
    assert not aa.chain([ax("b", 1, 4), ax("b", 6, 2)], A6_B12)
    assert aa.chain([ax("a", 1, 2), ax("b", 4, 3)], A6_B12)


def test_prefix_without_overlap_all():
    others = [ax("y"), ax("x", 4, 2)]
    assert aa.prefix_without_overlap_all(ax("x"), others, X8_Y4) == ax("x", 1, 4)
    assert aa.prefix_without_overlap_all(ax("x"), [ax("x", 2, 2), ax("x", 4, 2)],
                                         X8_Y4) == ax("x", 1, 2)
    assert aa.prefix_without_overlap_all(ax("x"), [ax("x", 1, 2)], X8_Y4) is None
    assert aa.prefix_without_overlap_all(None, [], X8_Y4) is None


@pytest.mark.parametrize("a, b, expected", [
    (ax("x", 1, 2), ax("x", 2, 4), ax("x")),         # [1,2) + [2,8) = the whole axis
    (ax("x", 1, 2), ax("x", 2, 2), ax("x", 1, 4)),
    (ax("x", 2, 2), ax("x", 4, 2), ax("x", 2, 4)),
    (ax("x", 1, 2), ax("x", 4, 2), None),            # a gap between them
    (ax("x", 2, 2), ax("x", 1, 2), None),            # wrong order (minor first)
    (ax("x", 1, 2), ax("y", 2, 2), None),
    (ax("y", 1, 2), ax("y", 2, 2), ax("y")),
])
def test_merged(a, b, expected):
    assert aa.merged(a, b, X8_Y4) == expected


def test_sub_prefix_and_append_or_merge():
    assert aa.sub_prefix(ax("x"), 2, X8_Y4) == ax("x", 1, 2)
    assert aa.sub_prefix(ax("x", 2, 4), 2, X8_Y4) == ax("x", 2, 2)
    assert aa.sub_prefix(ax("x"), 8, X8_Y4) == ax("x")
    axes = [ax("y"), ax("x", 1, 2)]
    aa.append_or_merge(axes, ax("x", 2, 4), X8_Y4)
    assert axes == [ax("y"), ax("x")]
    aa.append_or_merge(axes, ax("y", 1, 2), X8_Y4)  # y is already whole: no merge
    assert axes == [ax("y"), ax("x"), ax("y", 1, 2)]


@pytest.mark.parametrize("first, second, expected", [
    ((), (), "equal"),
    ((), (ax("x"),), "strict"),
    ((ax("x"),), (ax("x"),), "equal"),
    ((ax("x", 1, 2),), (ax("x"),), "strict"),             # sub-axis prefix of the axis
    ((ax("x", 1, 2),), (ax("x", 1, 4),), "strict"),
    ((ax("y"), ax("x", 1, 2)), (ax("y"), ax("x")), "strict"),
    ((ax("x", 1, 2),), (ax("x", 1, 2), ax("y")), "strict"),
    ((ax("x"),), (ax("x"), ax("y")), "strict"),
    ((ax("x", 1, 2), ax("y")), (ax("x"), ax("y")), "none"),  # differs before the last ref
    ((ax("x"),), (ax("x", 1, 2),), "none"),                # longer
    ((ax("x"), ax("y")), (ax("x"),), "none"),
    ((ax("y"),), (ax("x"),), "none"),
    ((ax("x", 2, 2),), (ax("x"),), "none"),               # starts later
    ((ax("x", 2, 2),), (ax("x", 2, 4),), "strict"),
])
def test_prefix_status(first, second, expected):
    assert aa.prefix_status(first, second, X8_Y4) == expected
    assert aa.is_strict_prefix(first, second, X8_Y4) is (expected == "strict")


def test_axes_size():
    assert aa.axes_size([], X8_Y4) == 1
    assert aa.axes_size([ax("x", 1, 2), ax("y")], X8_Y4) == 8


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
