"""Unit tests for the sub-axis algebra (python/shardpy/sharding/axis_algebra.py).

Expectations are written from Shardy's definitions, not from the code: an axis ref
covers the multiplicative interval [pre, pre*size) of its axis ("x":(2)4 of an axis of
size 8 covers [2, 8)).
"""
from __future__ import annotations

import pytest

from shardpy.sharding import axis_algebra as aa
from shardpy.sharding.model import AxisRef, Mesh

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
