"""GSPMD `mhlo.sharding` strings into the sharding model, with a generated mesh.

XLA's own parser reads the string (`HloSharding.from_string`); this module only maps
the parsed tile assignment onto named mesh axes:

  {replicated}                        -> closed empty dims on an empty mesh
  {maximal device=k}                  -> mesh <[], device_ids=[k]>
  {manual}                            -> manual on every axis (no tensor sharding)
  {devices=[2,1,4]<=[8] last_tile_dim_replicate}
                                      -> mesh <["axis_0"=2, "axis_1"=4]>, [{"axis_0"}, {}]
  {devices=[2,4]<=[4,2]T(1,0)}        -> mesh <["axis_0"=4, "axis_1"=2]>,
                                         [{"axis_1"}, {"axis_0"}]
  {devices=[2,2]0,2,1,3}              -> same as the iota form it equals; otherwise
                                         one axis per tile dim with explicit device_ids

An iota tile assignment `<=[R]T(P)` reshaped to the tile dims D is matched by refining
R (in iota order) and D (in transposed order) into common factors; each factor is one
mesh axis, so the mesh needs no device_ids.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from .sharding import AxisRef, DimSharding, Mesh, ShardingError, TensorSharding


@dataclass(frozen=True)
class GspmdSharding:
    """One imported sharding: `sharding` is None when the value is fully manual."""

    mesh: Mesh
    sharding: TensorSharding | None
    manual_axes: tuple[str, ...] = ()


def _parse(text: str):
    from . import jaxlib_bridge

    try:
        return jaxlib_bridge.hlo_sharding_from_string(text)
    except Exception as err:  # XLA raises a plain runtime error with its parser message
        raise ShardingError(f"cannot parse GSPMD sharding '{text}': {err}") from None


def import_gspmd(text: str, rank: int | tuple[int, ...]) -> GspmdSharding | list[GspmdSharding]:
    """Import one sharding string for a value of `rank` (a tuple of ranks for tuples)."""
    hlo = _parse(text)
    elements = hlo.tuple_elements()  # must come first: tile queries abort on tuples
    if elements:
        ranks = rank if isinstance(rank, tuple) else (rank,) * len(elements)
        if len(ranks) != len(elements):
            raise ShardingError(
                f"tuple sharding '{text}' has {len(elements)} elements for {len(ranks)} values")
        return [_import_one(e, r, str(e)) for e, r in zip(elements, ranks)]
    if isinstance(rank, tuple):
        if len(rank) != 1:
            raise ShardingError(f"sharding '{text}' is not a tuple but {len(rank)} values need one")
        rank = rank[0]
    return _import_one(hlo, rank, text)


def _import_one(hlo, rank: int, text: str) -> GspmdSharding:
    if hlo.is_unknown():
        raise ShardingError(f"sharding '{text}' is unknown; nothing to import")
    if hlo.is_manual():
        return GspmdSharding(Mesh(), None)
    if hlo.is_replicated():
        return GspmdSharding(Mesh(), TensorSharding.replicated_on(Mesh(), rank))
    if hlo.is_maximal():
        mesh = Mesh((), (hlo.tile_assignment_devices()[0],))
        return GspmdSharding(mesh, TensorSharding.replicated_on(mesh, rank))
    return _import_tiled(hlo, rank, text)


def _import_tiled(hlo, rank: int, text: str) -> GspmdSharding:
    tile_dims = list(hlo.tile_assignment_dimensions())
    subgroups = [str(t).rsplit(".", 1)[-1] for t in hlo.subgroup_types()]
    if hlo.replicate_on_last_tile_dim():
        subgroups = ["REPLICATED"]
    if len(tile_dims) != rank + len(subgroups):
        raise ShardingError(
            f"sharding '{text}' tiles {len(tile_dims) - len(subgroups)} dimension(s) of a "
            f"rank-{rank} value")
    proto = hlo.to_proto()
    if proto.iota_reshape_dims:
        reshape, perm = list(proto.iota_reshape_dims), list(proto.iota_transpose_perm)
    else:
        reshape, perm = _as_iota(list(hlo.tile_assignment_devices()), tile_dims)
    factored = _factor(reshape, perm, tile_dims) if reshape else None
    if factored is None:
        return _explicit_mesh(list(hlo.tile_assignment_devices()), tile_dims, rank, subgroups)
    mesh_axes, groups = factored
    mesh = Mesh(tuple(mesh_axes))
    dims = tuple(DimSharding(tuple(AxisRef(n) for n in groups[i])) for i in range(rank))
    manual = tuple(n for kind, i in zip(subgroups, range(rank, len(tile_dims)))
                   if kind == "MANUAL" for n in groups[i])
    return GspmdSharding(mesh, TensorSharding(mesh, dims), manual)


def _factor(reshape: list[int], perm: list[int], tile_dims: list[int]):
    """Common refinement of iota dims and tile dims, or None if sizes don't nest.

    Returns (mesh axes [(name, size)] in iota order, axis names per tile dim).
    """
    pieces: list[list[int]] = [[] for _ in reshape]          # per iota dim, major->minor
    owner: list[list[tuple[int, int]]] = [[] for _ in tile_dims]  # per tile dim: (iota dim, piece)
    sizes = [reshape[p] for p in perm]
    j, i = 0, 0
    s_left, d_left = (sizes[0] if sizes else 1), (tile_dims[0] if tile_dims else 1)
    while j < len(sizes) and i < len(tile_dims):
        if d_left == 1:
            i += 1
            d_left = tile_dims[i] if i < len(tile_dims) else 1
            continue
        if s_left == 1:
            j += 1
            s_left = sizes[j] if j < len(sizes) else 1
            continue
        if s_left % d_left == 0:
            piece = d_left
        elif d_left % s_left == 0:
            piece = s_left
        else:
            return None
        pieces[perm[j]].append(piece)
        owner[i].append((perm[j], len(pieces[perm[j]]) - 1))
        s_left //= piece
        d_left //= piece
    names: dict[tuple[int, int], str] = {}
    mesh_axes = []
    for r, sizes_r in enumerate(pieces):
        for k, size in enumerate(sizes_r):
            names[(r, k)] = f"axis_{len(mesh_axes)}"
            mesh_axes.append((names[(r, k)], size))
    return mesh_axes, [[names[key] for key in keys] for keys in owner]


def _as_iota(devices: list[int], tile_dims: list[int]) -> tuple[list[int], list[int]]:
    """Find R, P with devices == iota(R).transpose(P).reshape(-1), R taken from tile dims."""
    import numpy as np

    dims = [d for d in tile_dims if d > 1]
    if len(dims) > 6:  # permutations grow fast; explicit device ids still work
        return [], []
    target = np.array(devices)
    for perm in itertools.permutations(range(len(dims))):
        reshape = [dims[p] for p in np.argsort(perm)]
        if np.array_equal(np.arange(math.prod(dims)).reshape(reshape).transpose(perm).ravel(),
                          target):
            return reshape, list(perm)
    return [], []


def _explicit_mesh(devices: list[int], tile_dims: list[int], rank: int,
                   subgroups: list[str]) -> GspmdSharding:
    axes = [(f"axis_{i}", d) for i, d in enumerate(tile_dims)]
    named = {i: f"axis_{i}" for i, d in enumerate(tile_dims) if d > 1}
    mesh = Mesh(tuple((n, s) for n, s in axes if s > 1), tuple(devices))
    mesh.validate()
    dims = tuple(DimSharding((AxisRef(named[i]),) if i in named else ()) for i in range(rank))
    manual = tuple(named[i] for kind, i in zip(subgroups, range(rank, len(tile_dims)))
                   if kind == "MANUAL" and i in named)
    return GspmdSharding(mesh, TensorSharding(mesh, dims), manual)
