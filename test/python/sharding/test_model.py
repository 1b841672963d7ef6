"""Unit tests for the pure-Python sharding model (python/shardpy/sharding/model.py).

Expectations are computed independently of the code under test: mesh coordinates
with numpy's unravel_index, sub-axis coordinates by literally reshaping an axis into
[pre, size, rest], shard indices and slices from the definitions in the module
docstring.
"""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from shardpy.sharding.model import (AxisRef, DimSharding, Mesh, ShardingError, TensorSharding,
                              axes_size)

# --------------------------------------------------------------------------- builders


def ax(name: str, pre: int | None = None, size: int | None = None) -> AxisRef:
    """`ax("x")` is "x"; `ax("x", 2, 4)` is "x":(2)4."""
    return AxisRef(name) if pre is None else AxisRef(name, (pre, size))


def _ref(r) -> AxisRef:
    return r if isinstance(r, AxisRef) else AxisRef(r)


def dim(*refs, closed: bool = True, priority: int | None = None) -> DimSharding:
    return DimSharding(tuple(_ref(r) for r in refs), closed, priority)


def sharding(mesh: Mesh, *dims: DimSharding, replicated=(), unreduced=(),
             mesh_name: str | None = "mesh") -> TensorSharding:
    return TensorSharding(mesh, tuple(dims), tuple(map(_ref, replicated)),
                          tuple(map(_ref, unreduced)), mesh_name)


MESH_2x4 = Mesh((("x", 2), ("y", 4)))
MESH_XYZ = Mesh((("x", 2), ("y", 2), ("z", 2)))
MESH_8 = Mesh((("x", 8),))


# =========================================================================== Mesh


def test_mesh_size_is_product_of_axis_sizes():
    assert Mesh((("a", 2), ("b", 3), ("c", 5))).size == 30


def test_mesh_axis_names_and_sizes_keep_declaration_order():
    mesh = Mesh((("y", 4), ("x", 2)))
    assert mesh.axis_names == ("y", "x")
    assert mesh.axis_sizes == {"y": 4, "x": 2}


def test_mesh_accepts_lists_and_normalises_to_tuples():
    mesh = Mesh([["x", 2], ["y", 2]], [3, 2, 1, 0])
    assert mesh.axes == (("x", 2), ("y", 2))
    assert mesh.device_ids == (3, 2, 1, 0)
    assert mesh == Mesh((("x", 2), ("y", 2)), (3, 2, 1, 0))


def test_mesh_coordinates_without_device_ids_are_row_major():
    mesh = Mesh((("a", 2), ("b", 3), ("c", 4)))
    for device in range(mesh.size):
        a, b, c = np.unravel_index(device, (2, 3, 4))
        assert mesh.coordinates(device) == {"a": a, "b": b, "c": c}


def test_mesh_coordinates_follow_device_ids():
    ids = (5, 2, 7, 0, 1, 6, 3, 4)
    mesh = Mesh((("x", 2), ("y", 4)), ids)
    for position, device in enumerate(ids):
        x, y = np.unravel_index(position, (2, 4))
        assert mesh.coordinates(device) == {"x": x, "y": y}


def test_mesh_devices_lists_device_at_each_position():
    assert MESH_2x4.devices == tuple(range(8))
    assert Mesh((("x", 4),), (3, 1, 2, 0)).devices == (3, 1, 2, 0)


def test_mesh_iota_device_ids_are_normalised_away():
    explicit = Mesh((("x", 2), ("y", 2)), (0, 1, 2, 3))
    assert explicit.device_ids == ()
    assert explicit == Mesh((("x", 2), ("y", 2)))
    assert hash(explicit) == hash(Mesh((("x", 2), ("y", 2))))


def test_mesh_non_iota_device_ids_are_kept():
    mesh = Mesh((("x", 2), ("y", 2)), (0, 2, 1, 3))
    assert mesh.device_ids == (0, 2, 1, 3)
    assert mesh != Mesh((("x", 2), ("y", 2)))


def test_maximal_mesh_properties():
    mesh = Mesh((), (3,))
    mesh.validate()
    assert mesh.is_maximal and not mesh.is_empty
    assert mesh.size == 1
    assert mesh.devices == (3,)
    assert mesh.coordinates(3) == {}
    assert mesh.contains_device(3)
    assert not mesh.contains_device(0)


def test_maximal_mesh_on_device_zero_is_not_normalised_to_empty():
    mesh = Mesh((), (0,))
    assert mesh.is_maximal and not mesh.is_empty
    assert mesh.device_ids == (0,)
    assert mesh != Mesh()


def test_empty_mesh_properties():
    mesh = Mesh()
    mesh.validate()
    assert mesh.is_empty and not mesh.is_maximal
    assert mesh.size == 1
    assert mesh.contains_device(0) and mesh.contains_device(17)


def test_mesh_contains_only_its_devices():
    assert [d for d in range(10) if MESH_2x4.contains_device(d)] == list(range(8))


def test_mesh_str_is_sdy_syntax():
    assert str(MESH_2x4) == '<["x"=2, "y"=4]>'
    assert str(Mesh((("a", 4),), (3, 2, 1, 0))) == '<["a"=4], device_ids=[3, 2, 1, 0]>'
    assert str(Mesh((), (3,))) == "<[], device_ids=[3]>"
    assert str(Mesh()) == "<[]>"


def test_mesh_validate_accepts_permuted_device_ids():
    Mesh((("x", 2), ("y", 2)), (3, 0, 2, 1)).validate()


def test_mesh_validate_rejects_duplicate_axis():
    with pytest.raises(ShardingError, match='axis "x" is declared twice'):
        Mesh((("x", 2), ("y", 2), ("x", 4))).validate()


def test_mesh_validate_rejects_non_positive_axis_size():
    with pytest.raises(ShardingError, match='axis "x" has size 0'):
        Mesh((("x", 0),)).validate()


def test_mesh_validate_rejects_wrong_number_of_device_ids():
    with pytest.raises(ShardingError, match="4 positions but 3 device ids"):
        Mesh((("x", 2), ("y", 2)), (0, 1, 2)).validate()


def test_mesh_validate_rejects_duplicate_device_ids():
    with pytest.raises(ShardingError, match="not a permutation"):
        Mesh((("x", 4),), (0, 1, 1, 3)).validate()


def test_mesh_validate_rejects_out_of_range_device_ids():
    with pytest.raises(ShardingError, match="not a permutation of 0..3"):
        Mesh((("x", 4),), (1, 2, 3, 4)).validate()


def test_mesh_validate_rejects_maximal_mesh_with_two_devices():
    with pytest.raises(ShardingError, match="device ids"):
        Mesh((), (1, 2)).validate()


def test_mesh_validate_rejects_negative_maximal_device():
    with pytest.raises(ShardingError, match="negative"):
        Mesh((), (-1,)).validate()


# =========================================================================== AxisRef


def _sub_axis_coordinate_reference(axis_size: int, pre: int, size: int) -> list[int]:
    """Coordinate along "x":(pre)size for each coordinate of the full axis.

    Literally views the axis as [pre, size, rest] (major to minor) and reads the index
    of the middle dimension.
    """
    rest = axis_size // (pre * size)
    view = np.arange(axis_size).reshape(pre, size, rest)
    out = [None] * axis_size
    for i, j, k in itertools.product(range(pre), range(size), range(rest)):
        out[view[i, j, k]] = j
    return out


def test_full_axis_size_is_mesh_axis_size():
    assert ax("y").size(MESH_2x4) == 4


def test_sub_axis_size_is_its_own_size():
    assert ax("x", 2, 4).size(MESH_8) == 4


def test_axes_size_multiplies_refs():
    assert axes_size([ax("y"), ax("x")], MESH_2x4) == 8
    assert axes_size([], MESH_2x4) == 1


def test_full_axis_coordinate_is_axis_coordinate():
    for device in range(8):
        coords = MESH_2x4.coordinates(device)
        assert ax("x").coordinate(MESH_2x4, coords) == device // 4
        assert ax("y").coordinate(MESH_2x4, coords) == device % 4


def test_sub_axis_1_2_is_major_bit_of_axis_of_8():
    for device in range(8):
        assert ax("x", 1, 2).coordinate(MESH_8, MESH_8.coordinates(device)) == device // 4


def test_sub_axis_4_2_is_minor_bit_of_axis_of_8():
    for device in range(8):
        assert ax("x", 4, 2).coordinate(MESH_8, MESH_8.coordinates(device)) == device % 2


def test_sub_axis_2_2_is_middle_bit_of_axis_of_8():
    for device in range(8):
        assert ax("x", 2, 2).coordinate(MESH_8, MESH_8.coordinates(device)) == (device >> 1) & 1


@pytest.mark.parametrize("axis_size,pre,size", [
    (8, 1, 2), (8, 2, 2), (8, 4, 2), (8, 1, 4), (8, 2, 4),
    (12, 1, 2), (12, 1, 3), (12, 2, 3), (12, 3, 2), (12, 2, 2), (12, 3, 4), (12, 1, 6),
    (16, 2, 4), (16, 4, 4), (6, 3, 2),
])
def test_sub_axis_coordinate_matches_reshape_reference(axis_size, pre, size):
    # the sub-axis lives on the minor axis of a 2-D mesh, with permuted device ids
    mesh = Mesh((("w", 2), ("x", axis_size)),
                tuple(random.Random(axis_size * 100 + pre * 10 + size).sample(
                    range(2 * axis_size), 2 * axis_size)))
    expected = _sub_axis_coordinate_reference(axis_size, pre, size)
    ref = ax("x", pre, size)
    for position, device in enumerate(mesh.devices):
        x = position % axis_size
        assert ref.coordinate(mesh, mesh.coordinates(device)) == expected[x]


def test_axis_span_is_multiplicative_interval():
    assert ax("x").span(MESH_8) == (1, 8)
    assert ax("x", 2, 2).span(MESH_8) == (2, 4)


@pytest.mark.parametrize("a,b,expected", [
    (ax("x", 1, 2), ax("x", 2, 2), False),   # major bit vs middle bit
    (ax("x", 1, 2), ax("x", 4, 2), False),   # major bit vs minor bit
    (ax("x", 2, 2), ax("x", 4, 2), False),   # adjacent
    (ax("x", 1, 2), ax("x", 2, 4), False),   # prefix vs suffix
    (ax("x", 1, 4), ax("x", 2, 2), True),    # nested
    (ax("x", 1, 4), ax("x", 2, 4), True),    # share the middle bit
    (ax("x"), ax("x", 2, 2), True),          # full axis covers every sub-axis
    (ax("x"), ax("x"), True),
    (ax("x", 2, 2), ax("x", 2, 2), True),
])
def test_axis_overlap_on_axis_of_8(a, b, expected):
    assert a.overlaps(b, MESH_8) is expected
    assert b.overlaps(a, MESH_8) is expected


def test_different_axes_never_overlap():
    assert not ax("x").overlaps(ax("y"), MESH_2x4)


def test_axis_ref_str_is_sdy_syntax():
    assert str(ax("x")) == '"x"'
    assert str(ax("x", 2, 2)) == '"x":(2)2'


def test_axis_ref_validate_accepts_suffix_sub_axis():
    ax("x", 2, 4).validate(MESH_8)   # pre*size == axis size is fine when pre > 1


def test_axis_ref_validate_rejects_unknown_axis():
    with pytest.raises(ShardingError, match='unknown axis "q"'):
        ax("q").validate(MESH_2x4)


def test_axis_ref_validate_rejects_sub_axis_of_size_one():
    with pytest.raises(ShardingError, match="size > 1"):
        ax("x", 2, 1).validate(MESH_8)


def test_axis_ref_validate_rejects_zero_pre_size():
    with pytest.raises(ShardingError, match="pre-size >= 1"):
        ax("x", 0, 2).validate(MESH_8)


# =========================================================================== validate


def test_validate_accepts_typical_sharding():
    sharding(MESH_2x4, dim("x", closed=False, priority=0), dim("y")).validate((8, 16))


def test_validate_accepts_disjoint_sub_axes_in_different_dims():
    sharding(MESH_8, dim(ax("x", 1, 2)), dim(ax("x", 2, 4))).validate((4, 4))


def test_validate_accepts_open_empty_dim_with_priority():
    sharding(MESH_2x4, dim(closed=False, priority=2), dim()).validate((4, 4))


def test_validate_accepts_replicated_sharding_on_maximal_mesh():
    TensorSharding.replicated_on(Mesh((), (3,)), 2).validate((4, 4))


def test_validate_accepts_replicated_sharding_on_empty_mesh():
    TensorSharding.replicated_on(Mesh(), 3).validate((1, 2, 3))


def test_validate_rejects_axis_not_in_mesh():
    with pytest.raises(ShardingError, match='unknown axis "q"'):
        sharding(MESH_2x4, dim("q"), dim()).validate()


def test_validate_rejects_unknown_replicated_axis():
    with pytest.raises(ShardingError, match='unknown axis "q"'):
        sharding(MESH_2x4, dim(), replicated=["q"]).validate()


def test_validate_rejects_axis_twice_in_same_dim():
    with pytest.raises(ShardingError, match='axis "x" in dimension 0 is used twice'):
        sharding(MESH_2x4, dim("x", "x")).validate()


def test_validate_rejects_axis_in_two_dims():
    with pytest.raises(ShardingError, match='axis "y" in dimension 1 is used twice'):
        sharding(MESH_2x4, dim("y"), dim("y")).validate()


def test_validate_rejects_axis_in_dim_and_replicated():
    with pytest.raises(ShardingError, match='axis "x" in replicated axes is used twice'):
        sharding(MESH_2x4, dim("x"), replicated=["x"]).validate()


def test_validate_rejects_axis_in_dim_and_unreduced():
    with pytest.raises(ShardingError, match='axis "y" in unreduced axes is used twice'):
        sharding(MESH_2x4, dim("y"), unreduced=["y"]).validate()


def test_validate_rejects_axis_replicated_and_unreduced():
    with pytest.raises(ShardingError, match='axis "x" in unreduced axes is used twice'):
        sharding(MESH_2x4, dim(), replicated=["x"], unreduced=["x"]).validate()


def test_validate_rejects_overlapping_sub_axes():
    with pytest.raises(ShardingError, match=r'"x":\(2\)2 in dimension 1 overlaps "x":\(1\)4'):
        sharding(MESH_8, dim(ax("x", 1, 4)), dim(ax("x", 2, 2))).validate()


def test_validate_rejects_sub_axes_of_different_decompositions():
    # On "x"=6, "x":(1)2 = coordinate // 3 and "x":(3)2 = coordinate % 2: devices 0 and
    # 2 would hold the same shard of both dims, device 1 another; Shardy rejects it too.
    mesh6 = Mesh((("x", 6),))
    with pytest.raises(ShardingError, match=r'"x":\(3\)2 in dimension 1 and "x":\(1\)2 are '
                                            r'sub-axes of different decompositions'):
        sharding(mesh6, dim(ax("x", 1, 2)), dim(ax("x", 3, 2))).validate()
    sharding(mesh6, dim(ax("x", 1, 2)), dim(ax("x", 2, 3))).validate()


def test_validate_rejects_sub_axis_overlapping_full_axis():
    with pytest.raises(ShardingError, match=r'"x":\(4\)2 in replicated axes overlaps "x"'):
        sharding(MESH_8, dim("x"), replicated=[ax("x", 4, 2)]).validate()


def test_validate_rejects_sub_axis_not_dividing_axis():
    with pytest.raises(ShardingError, match=r'"x":\(3\)2.*does not divide the size 8'):
        sharding(MESH_8, dim(ax("x", 3, 2))).validate()


def test_validate_rejects_sub_axis_size_not_dividing_axis():
    with pytest.raises(ShardingError, match=r'"x":\(1\)3.*does not divide'):
        sharding(MESH_8, dim(ax("x", 1, 3))).validate()


def test_validate_rejects_sub_axis_equal_to_whole_axis():
    with pytest.raises(ShardingError, match=r'"x":\(1\)8 is the whole axis'):
        sharding(MESH_8, dim(ax("x", 1, 8))).validate()


def test_validate_rejects_rank_mismatch():
    with pytest.raises(ShardingError, match="2 dimension.*rank 3"):
        sharding(MESH_2x4, dim("x"), dim()).validate((4, 4, 4))


def test_validate_rejects_priority_on_closed_empty_dim():
    with pytest.raises(ShardingError, match="dimension 1 is closed and empty.*p1"):
        sharding(MESH_2x4, dim("x"), dim(priority=1)).validate()


def test_validate_rejects_negative_priority():
    with pytest.raises(ShardingError, match="dimension 0 has a negative priority"):
        sharding(MESH_2x4, dim("x", priority=-1)).validate()


def test_validate_rejects_dim_axes_on_maximal_mesh():
    with pytest.raises(ShardingError, match="maximal mesh"):
        sharding(Mesh((), (2,)), dim("x")).validate()


def test_validate_rejects_replicated_axes_on_maximal_mesh():
    with pytest.raises(ShardingError, match="maximal mesh"):
        sharding(Mesh((), (2,)), dim(), replicated=["x"]).validate()


def test_validate_rejects_invalid_mesh():
    with pytest.raises(ShardingError, match="declared twice"):
        sharding(Mesh((("x", 2), ("x", 2))), dim()).validate()


# =========================================================================== shapes


def test_local_shape_even():
    assert sharding(MESH_2x4, dim("x"), dim("y")).local_shape((8, 16)) == (4, 4)


def test_local_shape_of_replicated_dim_is_global():
    assert sharding(MESH_2x4, dim(), dim("y")).local_shape((7, 16)) == (7, 4)


def test_local_shape_of_dim_on_two_axes():
    assert sharding(MESH_2x4, dim("y", "x"), dim()).local_shape((16, 3)) == (2, 3)


def test_local_shape_uneven_rounds_up():
    assert sharding(MESH_2x4, dim("y")).local_shape((10,)) == (3,)


def test_local_shape_uneven_with_empty_last_shard():
    assert sharding(MESH_2x4, dim("y")).local_shape((5,)) == (2,)


def test_device_slices_uneven_last_shard_is_empty():
    s = sharding(Mesh((("x", 4),)), dim("x"))
    assert [s.device_slices((5,), d) for d in range(4)] == [
        (slice(0, 2),), (slice(2, 4),), (slice(4, 5),), (slice(5, 5),)]


def test_device_slices_uneven_ten_over_four():
    s = sharding(Mesh((("x", 4),)), dim("x"))
    sizes = [s.device_slices((10,), d)[0] for d in range(4)]
    assert [(sl.start, sl.stop) for sl in sizes] == [(0, 3), (3, 6), (6, 9), (9, 10)]


def test_dim_shards_multiplies_dim_axes():
    s = sharding(MESH_XYZ, dim("z", "x"), dim(), replicated=["y"])
    assert (s.dim_shards(0), s.dim_shards(1)) == (4, 1)


def test_shard_index_is_mixed_radix_major_axis_first():
    # device 6 on ["x"=2, "y"=4]: x=1, y=2
    assert sharding(MESH_2x4, dim("x", "y")).shard_index(6) == (1 * 4 + 2,)
    assert sharding(MESH_2x4, dim("y", "x")).shard_index(6) == (2 * 2 + 1,)


def test_shard_index_on_empty_and_maximal_mesh_is_zero():
    assert TensorSharding.replicated_on(Mesh(), 2).shard_index(5) == (0, 0)
    assert TensorSharding.replicated_on(Mesh((), (5,)), 2).shard_index(5) == (0, 0)


def test_device_slices_outside_mesh_is_none():
    s = sharding(MESH_2x4, dim("x"), dim("y"))
    assert s.device_slices((8, 8), 8) is None
    assert s.device_slices((8, 8), -1) is None


def test_device_slices_on_maximal_mesh_only_for_its_device():
    s = TensorSharding.replicated_on(Mesh((), (3,)), 2)
    assert s.device_slices((4, 6), 3) == (slice(0, 4), slice(0, 6))
    assert s.device_slices((4, 6), 0) is None


def test_device_slices_on_empty_mesh_is_whole_tensor_for_any_device():
    s = TensorSharding.replicated_on(Mesh(), 2)
    assert s.device_slices((4, 6), 11) == (slice(0, 4), slice(0, 6))


def test_unreduced_index_is_coordinate_along_unreduced_axes():
    s = sharding(MESH_XYZ, dim("x"), unreduced=["z", "y"])
    for device in range(8):
        x, y, z = np.unravel_index(device, (2, 2, 2))
        assert s.unreduced_index(device) == (z, y)


def test_unreduced_index_of_sub_axis():
    s = sharding(MESH_8, dim(), unreduced=[ax("x", 4, 2)])
    assert [s.unreduced_index(d) for d in range(8)] == [(d % 2,) for d in range(8)]


def test_unreduced_index_empty_when_nothing_unreduced():
    assert sharding(MESH_2x4, dim("x")).unreduced_index(3) == ()


# ------------------------------------------------------------ brute-force slices property


def _reference_position_coords(mesh: Mesh) -> dict[int, dict[str, int]]:
    """device -> full-axis coordinates, from device_ids and numpy's unravel_index."""
    names = [n for n, _ in mesh.axes]
    sizes = [s for _, s in mesh.axes]
    ids = list(mesh.device_ids) if mesh.device_ids else list(range(math.prod(sizes)))
    out = {}
    for position, device in enumerate(ids):
        out[device] = dict(zip(names, (int(c) for c in np.unravel_index(position, sizes))))
    return out


def _reference_ref_coord(mesh: Mesh, ref: AxisRef, coords: dict[str, int]) -> tuple[int, int]:
    """(coordinate, size) of `ref` for a device, via the [pre, size, rest] reshape."""
    full = dict(mesh.axes)[ref.name]
    if ref.sub is None:
        return coords[ref.name], full
    pre, size = ref.sub
    return _sub_axis_coordinate_reference(full, pre, size)[coords[ref.name]], size


def _reference_shard_index(mesh, dims_refs, coords) -> tuple[int, ...]:
    """coord(a) * size(b) + coord(b) for a dim on [a, b], generalised."""
    index = []
    for refs in dims_refs:
        i = 0
        for ref in refs:
            c, size = _reference_ref_coord(mesh, ref, coords)
            i = i * size + c
        index.append(i)
    return tuple(index)


def _reference_dim_shards(mesh, refs) -> int:
    full = dict(mesh.axes)
    return math.prod(r.sub[1] if r.sub else full[r.name] for r in refs)


def _perm(n: int, seed: int) -> tuple[int, ...]:
    ids = list(range(n))
    random.Random(seed).shuffle(ids)
    return tuple(ids)


# (mesh, per-dim axis refs, replicated, unreduced, global shape)
SLICE_CASES = {
    "1d": (Mesh((("x", 4),)), [["x"]], [], [], (8,)),
    "1d_uneven_empty_shard": (Mesh((("x", 4),)), [["x"]], [], [], (5,)),
    "2d": (MESH_2x4, [["x"], ["y"]], [], [], (8, 12)),
    "2d_transposed": (MESH_2x4, [["y"], ["x"]], [], [], (8, 12)),
    "2d_two_axes_one_dim": (MESH_2x4, [["y", "x"], []], [], [], (16, 3)),
    "2d_two_axes_one_dim_permuted_ids": (
        Mesh((("x", 2), ("y", 4)), _perm(8, 1)), [["y", "x"], []], [], [], (16, 3)),
    "2d_permuted_ids": (Mesh((("x", 2), ("y", 4)), _perm(8, 2)), [["x"], ["y"]], [], [],
                        (6, 10)),
    "2d_partially_replicated": (MESH_2x4, [[], ["y"]], ["x"], [], (3, 8)),
    "2d_unreduced": (MESH_2x4, [["x"], []], [], ["y"], (4, 4)),
    "3d_mesh_reversed_ids": (Mesh((("x", 2), ("y", 2), ("z", 2)), tuple(range(7, -1, -1))),
                             [["z"], ["x", "y"]], [], [], (4, 8)),
    "3d_mesh_uneven": (Mesh((("a", 2), ("b", 3), ("c", 2))), [["c", "a"], ["b"]], [], [],
                       (9, 10)),
    "3d_mesh_rank3_permuted": (Mesh((("a", 2), ("b", 3), ("c", 2)), _perm(12, 3)),
                               [["b"], ["c"], ["a"]], [], [], (3, 4, 5)),
    "sub_axes_split_across_dims": (MESH_8, [[ax("x", 1, 2)], [ax("x", 2, 4)]], [], [],
                                   (8, 8)),
    "sub_axes_minor_first": (MESH_8, [[ax("x", 4, 2), ax("x", 1, 2)]], [], [], (8,)),
    "sub_axes_middle_bit_replicated_rest": (MESH_8, [[ax("x", 2, 2)], []],
                                            [ax("x", 1, 2)], [ax("x", 4, 2)], (6, 2)),
    "sub_axes_two_meshes_axes_permuted_ids": (
        Mesh((("x", 4), ("y", 4)), _perm(16, 4)),
        [[ax("y", 2, 2), ax("x", 1, 2)], [ax("x", 2, 2)]], [ax("y", 1, 2)], [], (6, 7)),
    "sub_axes_of_12": (Mesh((("x", 12),)), [[ax("x", 1, 3)], [ax("x", 3, 2)], [ax("x", 6, 2)]],
                       [], [], (6, 4, 2)),
    "sub_axis_and_full_axis": (Mesh((("x", 2), ("y", 6)), _perm(12, 5)),
                               [["x", ax("y", 3, 2)], [ax("y", 1, 3)]], [], [], (8, 9)),
    "empty_mesh": (Mesh(), [[], []], [], [], (3, 4)),
}


@pytest.mark.parametrize("case", sorted(SLICE_CASES))
def test_device_slices_reconstruct_global_array(case):
    mesh, dims_refs, replicated, unreduced, shape = SLICE_CASES[case]
    dims_refs = [[_ref(r) for r in refs] for refs in dims_refs]
    s = TensorSharding(mesh, tuple(DimSharding(tuple(refs)) for refs in dims_refs),
                       tuple(map(_ref, replicated)), tuple(map(_ref, unreduced)))
    s.validate(shape)

    coords_of = _reference_position_coords(mesh)
    devices = sorted(coords_of)
    glob = np.arange(math.prod(shape)).reshape(shape)
    covered = np.zeros(shape, dtype=int)
    by_index: dict[tuple[int, ...], np.ndarray] = {}
    slices_by_index: dict[tuple[int, ...], tuple[slice, ...]] = {}
    for device in devices:
        slices = s.device_slices(shape, device)
        assert slices is not None, f"device {device} is in the mesh"
        # (d) shard_index agrees with the independent mixed-radix reference
        index = _reference_shard_index(mesh, dims_refs, coords_of[device])
        assert s.shard_index(device) == index
        # slices are exactly the index-th ceil(dim/shards) block, clipped
        for k, (sl, i, size) in enumerate(zip(slices, index, shape)):
            n = -(-size // _reference_dim_shards(mesh, dims_refs[k]))
            assert (sl.start, sl.stop) == (min(i * n, size), min((i + 1) * n, size))
        local = glob[slices]
        # (b) devices sharing a shard index hold identical slices
        if index in by_index:
            assert slices == slices_by_index[index]
            np.testing.assert_array_equal(local, by_index[index])
        by_index[index], slices_by_index[index] = local, slices
        covered[slices] += 1
    # (a) every element covered by at least one device
    assert covered.min() >= 1
    # distinct shards are disjoint: each element is held by exactly the replicas of one shard
    replicas = len(devices) // len(by_index)
    assert all(list(by_index).count(i) == 1 for i in by_index)
    assert (covered == replicas).all()
    # reconstructing from one device per shard gives back the global array
    rebuilt = np.full(shape, -1)
    for index, sl in slices_by_index.items():
        rebuilt[sl] = by_index[index]
    np.testing.assert_array_equal(rebuilt, glob)
    # (c) the number of distinct shards per dim equals dim_shards
    for k in range(len(shape)):
        distinct = {index[k] for index in by_index}
        assert len(distinct) == s.dim_shards(k) == _reference_dim_shards(mesh, dims_refs[k])
        assert distinct == set(range(s.dim_shards(k)))


@pytest.mark.parametrize("case", sorted(SLICE_CASES))
def test_device_slices_local_shape_bounds_every_slice(case):
    mesh, dims_refs, replicated, unreduced, shape = SLICE_CASES[case]
    s = TensorSharding(mesh, tuple(DimSharding(tuple(map(_ref, refs))) for refs in dims_refs),
                       tuple(map(_ref, replicated)), tuple(map(_ref, unreduced)))
    local = s.local_shape(shape)
    for device in _reference_position_coords(mesh):
        extents = [sl.stop - sl.start for sl in s.device_slices(shape, device)]
        assert all(0 <= e <= n for e, n in zip(extents, local))


# =========================================================================== misc queries


def test_replicated_on_builds_closed_empty_dims():
    s = TensorSharding.replicated_on(MESH_2x4, 3, "mesh")
    assert s.rank == 3
    assert s.dims == (DimSharding(),) * 3
    assert s.mesh_name == "mesh"


def test_replicated_on_open():
    s = TensorSharding.replicated_on(MESH_2x4, 1, closed=False)
    assert s.dims == (DimSharding((), False),)


def test_is_fully_replicated():
    assert sharding(MESH_2x4, dim(), dim(), replicated=["x"]).is_fully_replicated
    assert not sharding(MESH_2x4, dim("x"), dim()).is_fully_replicated
    assert not sharding(MESH_2x4, dim(), unreduced=["x"]).is_fully_replicated


def test_all_axes_lists_dims_then_replicated_then_unreduced():
    s = sharding(MESH_XYZ, dim("y"), dim("x"), replicated=["z"], unreduced=[])
    assert s.all_axes() == [ax("y"), ax("x"), ax("z")]
    s = sharding(MESH_XYZ, dim(), unreduced=["x"], replicated=["y"])
    assert s.all_axes() == [ax("y"), ax("x")]


# =========================================================================== hash / eq


def _build_example() -> TensorSharding:
    return TensorSharding(
        Mesh([("x", 8), ("y", 2)], [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]),
        (DimSharding((AxisRef("x", (1, 2)),), False, 1), DimSharding(())),
        (AxisRef("y"),), (AxisRef("x", (2, 4)),), "mesh")


def test_sharding_built_twice_is_equal_and_hashes_equal():
    a, b = _build_example(), _build_example()
    assert a == b and a is not b
    assert hash(a) == hash(b)


def test_sharding_is_usable_as_dict_key():
    table = {_build_example(): "value"}
    assert table[_build_example()] == "value"
    assert len({_build_example(), _build_example()}) == 1


def test_mesh_and_refs_are_hashable():
    assert len({Mesh((("x", 2),)), Mesh([("x", 2)]), Mesh((("x", 2),), (0, 1))}) == 1
    assert len({AxisRef("x", (1, 2)), AxisRef("x", (1, 2)), AxisRef("x")}) == 2


def test_sharding_equality_sees_priority():
    assert sharding(MESH_2x4, dim("x", priority=1)) != sharding(MESH_2x4, dim("x"))


def test_sharding_equality_sees_openness():
    assert sharding(MESH_2x4, dim("x", closed=False)) != sharding(MESH_2x4, dim("x"))


def test_sharding_equality_sees_mesh_name():
    assert sharding(MESH_2x4, dim("x")) != sharding(MESH_2x4, dim("x"), mesh_name=None)


def test_sharding_equality_sees_mesh_device_ids():
    assert (sharding(Mesh((("x", 2),), (1, 0)), dim("x"))
            != sharding(Mesh((("x", 2),)), dim("x")))


# =========================================================================== str


def test_str_full_example():
    mesh = Mesh((("x", 2), ("y", 2), ("z", 2)))
    s = sharding(mesh, dim("x", closed=False, priority=1), dim(),
                 replicated=["y"], unreduced=["z"])
    assert str(s) == '<@mesh, [{"x", ?}p1, {}], replicated={"y"}, unreduced={"z"}>'


def test_str_sub_axes():
    s = sharding(MESH_8, dim(ax("x", 2, 2), ax("x", 1, 2)), dim(ax("x", 4, 2)))
    assert str(s) == '<@mesh, [{"x":(2)2, "x":(1)2}, {"x":(4)2}]>'


def test_str_open_empty_dim_with_priority():
    assert str(sharding(MESH_2x4, dim(closed=False, priority=0), dim(closed=False))) == \
        "<@mesh, [{?}p0, {?}]>"


def test_str_rank_zero():
    assert str(sharding(MESH_2x4)) == "<@mesh, []>"


def test_str_inlined_mesh_with_device_ids():
    s = sharding(Mesh((("a", 4),), (3, 2, 1, 0)), dim("a"), mesh_name=None)
    assert str(s) == '<mesh<["a"=4], device_ids=[3, 2, 1, 0]>, [{"a"}]>'


def test_str_inlined_maximal_mesh():
    s = TensorSharding.replicated_on(Mesh((), (3,)), 2)
    assert str(s) == "<mesh<[], device_ids=[3]>, [{}, {}]>"


def test_str_inlined_empty_mesh():
    assert str(TensorSharding.replicated_on(Mesh(), 1)) == "<mesh<[]>, [{}]>"


def test_str_several_replicated_and_unreduced_axes():
    mesh = Mesh((("x", 2), ("y", 2), ("z", 4)))
    s = sharding(mesh, dim(), replicated=["x", "y"], unreduced=[ax("z", 1, 2)])
    assert str(s) == '<@mesh, [{}], replicated={"x", "y"}, unreduced={"z":(1)2}>'
