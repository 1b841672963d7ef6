"""Which devices talk in a collective over some mesh axes, and in what order.

A collective over axes A of a mesh runs independently in groups: the devices whose
coordinates agree on every axis not in A. Inside a group, devices are ordered by their
coordinates along A, row-major in the order A is given (so the first axis is major) —
the same order in which a dim sharded on A numbers its shards. Device ids are logical
(partition ids), taken from the mesh's device order.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .sharding import AxisRef, Mesh


@lru_cache(maxsize=None)
def replica_groups(mesh: Mesh, axes: tuple[AxisRef, ...]) -> tuple[tuple[int, ...], ...]:
    if not axes:
        return tuple((d,) for d in mesh.devices)
    groups: dict[tuple, dict[int, int]] = {}
    for device in mesh.devices:
        coords = mesh.coordinates(device)
        index = 0
        for ref in axes:
            index = index * ref.size(mesh) + ref.coordinate(mesh, coords)
        rest = tuple(_coordinates_outside(mesh, coords, axes))
        groups.setdefault(rest, {})[index] = device
    return tuple(tuple(members[i] for i in sorted(members)) for members in groups.values())


def _coordinates_outside(mesh: Mesh, coords: dict[str, int], axes: Sequence[AxisRef]):
    """A device's coordinates along everything `axes` don't cover: full axes not listed,
    and for a listed sub-axis the rest of its axis (the coordinate with the sub-axis'
    digit zeroed)."""
    for name, size in mesh.axes:
        coordinate = coords[name]
        for ref in axes:
            if ref.name != name:
                continue
            lo, hi = ref.span(mesh)
            minor = size // hi  # sub-axis [lo, hi) is the digit c // minor % (hi / lo)
            coordinate -= ((coordinate // minor) % (hi // lo)) * minor
        yield coordinate


def group_index(mesh: Mesh, axes: tuple[AxisRef, ...], device: int) -> int:
    """Position of `device` inside its group (its shard index along `axes`)."""
    coords = mesh.coordinates(device)
    index = 0
    for ref in axes:
        index = index * ref.size(mesh) + ref.coordinate(mesh, coords)
    return index
