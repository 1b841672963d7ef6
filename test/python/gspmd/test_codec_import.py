"""Unit tests for importing GSPMD `mhlo.sharding` strings (python/shardpy/gspmd/codec.py).

The key property: for every device, the slice the imported TensorSharding gives it
equals the tile that XLA's own tile assignment gives it. The GSPMD side is computed
here straight from `HloSharding.from_string`'s tile assignment.
"""
from __future__ import annotations

import numpy as np
import pytest
from shardpy.ir.jaxlib_bridge import hlo_sharding_from_string

from shardpy.gspmd.codec import GspmdSharding, import_gspmd
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, ShardingError, TensorSharding

EXTENT = 48  # every tiling below divides it (2, 3, 4, 6, 8, 16)


def gspmd_tiles(text: str, rank: int) -> dict[int, tuple[slice, ...]]:
    """device -> its tile of a (EXTENT,)*rank tensor, from XLA's tile assignment.

    The tile index of device d is its position in the tile-assignment array; the
    trailing subgroup dims (replicated or manual) do not split the tensor.
    """
    hlo = hlo_sharding_from_string(text)
    tile_dims = list(hlo.tile_assignment_dimensions())
    devices = np.array(hlo.tile_assignment_devices()).reshape(tile_dims)
    assert len(tile_dims) >= rank
    tiles = {}
    for position in np.ndindex(*tile_dims):
        device = int(devices[position])
        assert device not in tiles, "each device appears once in a tile assignment"
        size = [EXTENT // t for t in tile_dims[:rank]]
        tiles[device] = tuple(slice(i * n, (i + 1) * n)
                              for i, n in zip(position[:rank], size))
    return tiles


TILED = [
    ("{devices=[2,2]0,1,2,3}", 2),
    ("{devices=[2,2]0,2,1,3}", 2),
    ("{devices=[2,2]0,3,1,2}", 2),
    ("{devices=[2,2]3,2,1,0}", 2),
    ("{devices=[4,2]<=[8]}", 2),
    ("{devices=[2,4]<=[4,2]T(1,0)}", 2),
    ("{devices=[4,2]<=[2,4]T(1,0)}", 2),
    ("{devices=[4,2]<=[4,2]T(1,0)}", 2),
    ("{devices=[8,1]<=[2,4]T(1,0)}", 2),
    ("{devices=[2,6]<=[3,4]T(1,0)}", 2),
    ("{devices=[2,3]<=[2,3]T(1,0)}", 2),
    ("{devices=[4,4]<=[4,4]T(1,0)}", 2),
    ("{devices=[2,2,2]<=[2,2,2]T(2,0,1)}", 3),
    ("{devices=[2,2,2]<=[2,2,2]T(1,2,0)}", 3),
    ("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", 2),
    ("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", 2),
    ("{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}", 2),
    ("{devices=[2,1,2]0,3,1,2 last_tile_dim_replicate}", 2),
    ("{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}", 2),
    ("{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}", 2),
    ("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}", 1),
    ("{devices=[1,2,4]<=[8] last_tile_dims={manual}}", 2),
    ("{devices=[2,2,2]<=[2,2,2]T(2,1,0) last_tile_dims={manual}}", 2),
    ("{devices=[3,2]1,0,3,2,5,4}", 2),
    ("{devices=[2,3]0,3,1,4,2,5}", 2),
    ("{devices=[4]<=[4]}", 1),
    ("{devices=[1,4]<=[4]}", 2),
    ("{devices=[1,4]0,2,1,3}", 2),
    ("{devices=[2,2,2]0,1,4,5,2,3,6,7 last_tile_dim_replicate}", 2),
    ("{devices=[2,2]<=[4] last_tile_dims={manual}}", 1),
    ("{devices=[2,4,2]<=[2,2,4]T(2,0,1)}", 3),
    ("{devices=[16]<=[2,2,2,2]T(3,1,0,2)}", 1),
    ("{devices=[4,2,2]<=[2,2,2,2]T(3,1,0,2) last_tile_dim_replicate}", 2),
    ("{devices=[2,3,2]<=[3,4]T(1,0) last_tile_dim_replicate}", 2),
    ("{devices=[3,2,2]<=[2,2,3]T(2,1,0) last_tile_dims={manual}}", 2),
    ("{devices=[6,2]<=[4,3]T(1,0)}", 2),
    ("{devices=[12,1]<=[2,2,3]T(1,2,0)}", 2),
]


@pytest.mark.parametrize("text,rank", TILED)
def test_imported_slices_equal_gspmd_tiles(text, rank):
    imported = import_gspmd(text, rank)
    shape = (EXTENT,) * rank
    tiles = gspmd_tiles(text, rank)
    for device, tile in tiles.items():
        assert imported.sharding.device_slices(shape, device) == tile, f"device {device}"


@pytest.mark.parametrize("text,rank", TILED)
def test_imported_mesh_holds_exactly_the_tile_assignment_devices(text, rank):
    imported = import_gspmd(text, rank)
    tiles = gspmd_tiles(text, rank)
    assert sorted(imported.mesh.devices) == sorted(tiles)
    assert imported.sharding.device_slices((EXTENT,) * rank, len(tiles)) is None


@pytest.mark.parametrize("text,rank", TILED)
def test_imported_sharding_is_valid(text, rank):
    imported = import_gspmd(text, rank)
    imported.mesh.validate()
    imported.sharding.validate((EXTENT,) * rank)
    assert imported.sharding.mesh == imported.mesh
    assert imported.sharding.rank == rank


# --------------------------------------------------------------------------- structure


def test_replicated_is_closed_empty_dims_on_empty_mesh():
    imported = import_gspmd("{replicated}", 2)
    assert imported.mesh == Mesh() and imported.manual_axes == ()
    assert imported.sharding == TensorSharding(Mesh(), (DimSharding(), DimSharding()))
    assert imported.sharding.device_slices((4, 4), 5) == (slice(0, 4), slice(0, 4))


def test_maximal_is_maximal_mesh_on_that_device():
    imported = import_gspmd("{maximal device=3}", 2)
    assert imported.mesh == Mesh((), (3,)) and imported.mesh.is_maximal
    assert imported.sharding.is_fully_replicated
    assert imported.sharding.device_slices((4, 6), 3) == (slice(0, 4), slice(0, 6))
    assert imported.sharding.device_slices((4, 6), 0) is None


def test_manual_has_no_tensor_sharding():
    assert import_gspmd("{manual}", 2) == GspmdSharding(Mesh(), None)


def test_last_tile_dim_replicate_drops_replica_axis_from_dims():
    imported = import_gspmd("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", 2)
    assert imported.mesh == Mesh((("axis_0", 2), ("axis_1", 4)))
    assert str(imported.sharding) == '<mesh<["axis_0"=2, "axis_1"=4]>, [{"axis_0"}, {}]>'


def test_iota_transpose_maps_tile_dims_to_transposed_axes():
    imported = import_gspmd("{devices=[2,4]<=[4,2]T(1,0)}", 2)
    assert imported.mesh == Mesh((("axis_0", 4), ("axis_1", 2)))
    assert imported.sharding.dims == (DimSharding((AxisRef("axis_1"),)),
                                      DimSharding((AxisRef("axis_0"),)))


def test_explicit_iota_device_list_needs_no_device_ids():
    imported = import_gspmd("{devices=[2,2]0,1,2,3}", 2)
    assert imported.mesh == Mesh((("axis_0", 2), ("axis_1", 2)))
    assert imported.mesh.device_ids == ()


def test_explicit_transposed_iota_device_list_needs_no_device_ids():
    imported = import_gspmd("{devices=[2,2]0,2,1,3}", 2)
    assert imported.mesh.device_ids == ()
    assert imported.sharding.dims == (DimSharding((AxisRef("axis_1"),)),
                                      DimSharding((AxisRef("axis_0"),)))


def test_non_iota_device_list_gets_explicit_device_ids():
    imported = import_gspmd("{devices=[2,2]0,3,1,2}", 2)
    assert imported.mesh == Mesh((("axis_0", 2), ("axis_1", 2)), (0, 3, 1, 2))
    assert imported.sharding.dims == (DimSharding((AxisRef("axis_0"),)),
                                      DimSharding((AxisRef("axis_1"),)))


def test_manual_and_replicated_subgroups():
    imported = import_gspmd("{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}", 2)
    assert imported.mesh == Mesh((("axis_0", 2), ("axis_1", 2), ("axis_2", 2)))
    assert imported.manual_axes == ("axis_1",)
    assert imported.sharding.dims == (DimSharding((AxisRef("axis_0"),)), DimSharding())


def test_manual_subgroup_axis_is_not_in_the_tensor_sharding():
    imported = import_gspmd("{devices=[1,2,4]<=[8] last_tile_dims={manual}}", 2)
    assert imported.manual_axes == ("axis_1",)
    assert "axis_1" not in {a.name for a in imported.sharding.all_axes()}


def test_imported_dims_are_closed_without_priority():
    imported = import_gspmd("{devices=[2,4]<=[8]}", 2)
    assert all(d.closed and d.priority is None for d in imported.sharding.dims)


# --------------------------------------------------------------------------- tuples


def test_tuple_sharding_imports_each_element():
    first, second = import_gspmd("{{replicated}, {devices=[2,1]0,1}}", 2)
    assert first.sharding.is_fully_replicated and first.mesh == Mesh()
    assert second.mesh == Mesh((("axis_0", 2),))
    assert second.sharding.dims == (DimSharding((AxisRef("axis_0"),)), DimSharding())


def test_tuple_sharding_with_per_element_ranks():
    first, second = import_gspmd("{{maximal device=1}, {devices=[2]0,1}}", (3, 1))
    assert first.sharding.rank == 3 and first.mesh.is_maximal
    assert second.sharding.rank == 1
    assert second.sharding.device_slices((8,), 1) == (slice(4, 8),)


def test_tuple_sharding_with_wrong_number_of_ranks_is_an_error():
    with pytest.raises(ShardingError, match="2 elements for 3 values"):
        import_gspmd("{{replicated}, {devices=[2,1]0,1}}", (2, 2, 2))


def test_non_tuple_sharding_for_several_values_is_an_error():
    with pytest.raises(ShardingError, match="not a tuple"):
        import_gspmd("{devices=[2,1]0,1}", (2, 2))


def test_non_tuple_sharding_for_one_rank_tuple():
    imported = import_gspmd("{devices=[2,1]0,1}", (2,))
    assert imported.sharding.rank == 2


# --------------------------------------------------------------------------- errors


def test_tiling_that_only_replicates_imports_as_replicated():
    # XLA itself canonicalises this to {replicated}
    imported = import_gspmd("{devices=[1,1,4]<=[4] last_tile_dim_replicate}", 2)
    assert imported.mesh == Mesh()
    assert imported.sharding.is_fully_replicated


def test_unknown_sharding_is_an_error():
    with pytest.raises(ShardingError, match="unknown"):
        import_gspmd("{unknown}", 2)


def test_garbage_string_is_an_error():
    with pytest.raises(ShardingError, match="cannot parse GSPMD sharding 'garbage'"):
        import_gspmd("garbage", 2)


def test_rank_mismatch_is_an_error():
    with pytest.raises(ShardingError, match="tiles 2 dimension.*rank-3 value"):
        import_gspmd("{devices=[2,2]0,1,2,3}", 3)


def test_rank_mismatch_counts_subgroup_dims_out():
    with pytest.raises(ShardingError, match="tiles 1 dimension.*rank-2 value"):
        import_gspmd("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}", 2)


def test_device_list_with_duplicates_is_an_error():
    with pytest.raises(ShardingError, match="not a permutation"):
        import_gspmd("{devices=[2,2]0,1,1,3}", 2)


def test_device_list_out_of_range_is_an_error():
    with pytest.raises(ShardingError, match="not a permutation"):
        import_gspmd("{devices=[2,2]0,1,2,5}", 2)
