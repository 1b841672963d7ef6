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

from .model import AxisRef, Mesh


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


def mesh_devices(mesh: Mesh, num_devices: int) -> tuple[int, ...]:
    """The logical devices of `mesh`; the empty mesh (`<[]>`, whole values on every
    device) has all `num_devices` of them."""
    return tuple(range(num_devices)) if mesh.is_empty else mesh.devices


def permute_rounds(source, target, num_devices: int = 1
                   ) -> list[tuple[tuple[int, int], ...]]:
    """(sender, receiver) pairs taking a value from `source` to `target`, two shardings
    with equal shard shapes (no unreduced axes), possibly on different meshes: each
    device of the target gets the block it holds there from a device holding that block
    in the source. One collective_permute may send a device's buffer once and give a
    device one buffer, so pairs come in rounds: one round for a permutation of devices
    or a subset of them; a target with more devices than holders of a block (a larger
    mesh) needs more. A pair (d, d) keeps a device's block (collective_permute leaves
    zeros on devices it gives nothing); a first round of such pairs alone moves nothing.
    `num_devices`: the empty mesh's devices (every device)."""
    holders: dict[tuple, list[int]] = {}
    for d in mesh_devices(source.mesh, num_devices):
        holders.setdefault(source.shard_index(d), []).append(d)
    waiting = list(mesh_devices(target.mesh, num_devices))
    rounds = []
    while waiting:
        pairs, used, left = [], set(), []
        for d in waiting:
            candidates = holders[target.shard_index(d)]
            if d in candidates and d not in used and not rounds:
                sender = d
            else:
                sender = next((c for c in candidates if c not in used), None)
            if sender is None:
                left.append(d)
                continue
            used.add(sender)
            pairs.append((sender, d))
        rounds.append(tuple(pairs))
        waiting = left
    return rounds
