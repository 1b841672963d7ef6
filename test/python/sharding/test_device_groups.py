"""shardpy.sharding.device_groups: replica groups as dense lists and as mesh axes.

The mesh-axes attribute must name exactly the groups replica_groups lists (same devices
in the same order within a group; the order of the groups does not matter), including
the lone axis written as two and sub-axes; where it cannot, it says None.
(That XLA reads the attribute the same way is proven by execution:
test/Partition/replica_groups_mesh_axes.test.)"""
from __future__ import annotations

import itertools

import pytest
from jaxlib.mlir import ir

from shardpy.ir.jaxlib_bridge import make_context
from shardpy.sharding.device_groups import (attribute_mesh, group_size_of, groups_of,
                                            mesh_axes_attr, replica_groups)
from shardpy.sharding.model import AxisRef, Mesh


@pytest.fixture(autouse=True)
def context():
    with make_context():
        yield


def sub_axes(name: str, size: int):
    """Every ref to `name`: the whole axis and each (pre)size sub-axis."""
    yield AxisRef(name)
    for pre in range(1, size):
        for k in range(2, size // pre + 1):
            if size % (pre * k) == 0 and (pre, k) != (1, size):
                yield AxisRef(name, (pre, k))


def one_decomposition(a: AxisRef, b: AxisRef, mesh: Mesh) -> bool:
    """Sub-axes of one axis that split it the same way ("c":(1)2 and "c":(3)2 of 6 do
    not: 2 does not divide 3)."""
    if a.name != b.name:
        return True
    bounds = sorted({*a.span(mesh), *b.span(mesh), mesh.axis_sizes[a.name]})
    return all(hi % lo == 0 for lo, hi in zip(bounds, bounds[1:]))


MESHES = [Mesh((("x", 8),)), Mesh((("x", 12),)), Mesh((("x", 2), ("y", 4))),
          Mesh((("a", 2), ("b", 1), ("c", 6))), Mesh((("a", 2), ("b", 2), ("c", 2))),
          Mesh((("extra", 16), ("data", 2), ("model", 4)))]


@pytest.mark.parametrize("mesh", MESHES, ids=str)
def test_mesh_axes_name_the_listed_groups(mesh):
    refs = [r for name, size in mesh.axes if size > 1 for r in sub_axes(name, size)]
    checked = 0
    for count in (1, 2):
        for axes in itertools.permutations(refs, count):
            if any(a.overlaps(b, mesh) or not one_decomposition(a, b, mesh)
                   for a, b in itertools.combinations(axes, 2)):
                continue
            attr = mesh_axes_attr(mesh, axes)
            if attr is None:
                continue
            assert sorted(groups_of(attr)) == sorted(replica_groups(mesh, axes)), axes
            assert group_size_of(attr) == len(replica_groups(mesh, axes)[0])
            assert not _mergeable_neighbours(attr), (axes, str(attr))
            checked += 1
    assert checked


def _mergeable_neighbours(attr) -> list:
    """Adjacent axes of the attribute that are one sub-axis together (XLA aborts on
    them: "Adjacent axes in dimension sharding can be merged")."""
    from shardpy.sharding.device_groups import _mesh_axes

    mesh, axes = _mesh_axes(attr)
    found = []
    for a, b in zip(axes, axes[1:]):
        if a.name == b.name:
            a_pre, a_size = a.sub or (1, mesh.axis_sizes[a.name])
            b_pre, _ = b.sub or (1, mesh.axis_sizes[b.name])
            if a_pre * a_size == b_pre:
                found.append((a, b))
    return found


def test_sub_axes_that_fill_a_frame_axis_are_written_whole():
    # x=8 is framed as x=2, x'=4; the minor 4 of x, listed as its two halves, is x'
    # (a fuzz program made XLA abort on [x':(1)2, x':(2)2]).
    attr = mesh_axes_attr(Mesh((("x", 8),)), (AxisRef("x", (2, 2)), AxisRef("x", (4, 2))))
    assert 'axes = [#stablehlo.axis_ref<name = "x\'">]' in str(attr)
    assert groups_of(attr) == replica_groups(Mesh((("x", 8),)), (AxisRef("x", (2, 4)),))


def test_lone_axis_is_written_as_two():
    attr = mesh_axes_attr(Mesh((("data", 8),)), (AxisRef("data"),))
    text = str(attr)
    assert '<name = "data", size = 2>, <name = "data\'", size = 4>' in text
    assert groups_of(attr) == ((0, 1, 2, 3, 4, 5, 6, 7),)


def test_forms_it_cannot_say():
    assert mesh_axes_attr(Mesh((("x", 7),)), (AxisRef("x"),)) is None  # prime: no split
    permuted = Mesh((("x", 2), ("y", 2)), device_ids=(0, 2, 1, 3))
    assert mesh_axes_attr(permuted, (AxisRef("y"),)) is None  # XLA ignores device_ids
    # a sub-axis across the split of a lone axis of 12 (2 x 6): the major 3
    assert mesh_axes_attr(Mesh((("x", 12),)), (AxisRef("x", (1, 3)),)) is None


def test_dense_groups_read_back():
    attr = ir.DenseIntElementsAttr.get(__import__("numpy").array([[0, 2], [1, 3]]))
    assert groups_of(attr) == ((0, 2), (1, 3))
    assert group_size_of(attr) == 2


def test_one_frame_for_every_mesh():
    """XLA reads one attribute mesh per module: other meshes' groups on it, where their
    axes fall on its axes."""
    frame = attribute_mesh(Mesh((("x", 12),)))  # x=2, x'=6
    other = Mesh((("xx", 12),))
    attr = mesh_axes_attr(other, (AxisRef("xx"),), frame)
    assert groups_of(attr) == replica_groups(other, (AxisRef("xx"),))
    three_four = Mesh((("a", 3), ("b", 4)))
    assert mesh_axes_attr(three_four, (AxisRef("b"),), frame) is None  # 4 across 2 x 6
    two_six = Mesh((("p", 2), ("q", 3), ("r", 2)))
    for axes in [(AxisRef("p"),), (AxisRef("r"), AxisRef("q")), (AxisRef("q"),)]:
        attr = mesh_axes_attr(two_six, axes, frame)
        assert sorted(groups_of(attr)) == sorted(replica_groups(two_six, axes)), axes
