"""Which devices talk in a collective over some mesh axes, and in what order.

A collective over axes A of a mesh runs independently in groups: the devices whose
coordinates agree on every axis not in A. Inside a group, devices are ordered by their
coordinates along A, row-major in the order A is given (so the first axis is major) —
the same order in which a dim sharded on A numbers its shards. Device ids are logical
(partition ids), taken from the mesh's device order.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

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


def permute_rounds(source, target, num_devices: int = 1, fixed: tuple[str, ...] = ()
                   ) -> list[tuple[tuple[int, int], ...]]:
    """(sender, receiver) pairs taking a value from `source` to `target`, two shardings
    with equal shard shapes (no unreduced axes), possibly on different meshes: each
    device of the target gets the block it holds there from a device holding that block
    in the source. One collective_permute may send a device's buffer once and give a
    device one buffer, so pairs come in rounds: one round for a permutation of devices
    or a subset of them; a target with more devices than holders of a block (a larger
    mesh) needs more. A pair (d, d) keeps a device's block (collective_permute leaves
    zeros on devices it gives nothing); a first round of such pairs alone moves nothing.
    `num_devices`: the empty mesh's devices (every device). `fixed`: mesh axes a block
    never crosses: the manual axes of the manual computations around the reshard, along
    which devices hold different values that the shardings (of the free axes) do not
    name; a device takes its block from one at its own coordinates on them."""
    def key(sharding, d):
        index = sharding.shard_index(d)
        if not fixed or sharding.mesh.is_empty or sharding.mesh.is_maximal:
            return index
        coords = sharding.mesh.coordinates(d)
        return index, tuple(coords.get(name) for name in fixed)

    holders: dict[tuple, list[int]] = {}
    for d in mesh_devices(source.mesh, num_devices):
        holders.setdefault(key(source, d), []).append(d)
    waiting = list(mesh_devices(target.mesh, num_devices))
    rounds = []
    while waiting:
        pairs, used, left = [], set(), []
        for d in waiting:
            candidates = holders[key(target, d)]
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


# -- replica_groups attributes: a dense list, or mesh axes ----------------------------
# StableHLO takes a collective's replica_groups in two forms: a dense GxN tensor of
# device ids, which grows with the device count, and
#   #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [...]>,
#                                      axes = [#stablehlo.axis_ref<name = "y">, ...]>
# which names the axes (the groups of replica_groups(mesh, axes)) and does not. XLA (in
# jaxlib 0.10.2) reads the second in the mesh's iota order only: it ignores a mesh's
# device_ids, so a mesh with device_ids keeps the dense form.

def attribute_mesh(mesh: Mesh) -> Mesh | None:
    """A mesh the mesh-axes form can name `mesh`'s groups on (mesh_axes_attr's
    `frame`): `mesh` itself, or, where it has one axis of size > 1, that axis written as
    two (its smallest prime factor, then the rest): XLA rejects a mesh with fewer than
    two such axes ("Unknown axis"). None for a mesh whose devices are not in iota order
    (XLA ignores device_ids in this form), a maximal or empty mesh, or a lone axis of
    prime size."""
    if mesh.device_ids or not mesh.axes:
        return None
    big = [name for name, size in mesh.axes if size > 1]
    if len(big) != 1:
        return mesh if big else None
    name = big[0]
    n = mesh.axis_sizes[name]
    f = next(k for k in range(2, n + 1) if n % k == 0)
    if f == n:
        return None
    minor = name + "'"
    while minor in mesh.axis_sizes:
        minor += "'"
    return Mesh(((name, f), (minor, n // f)))


def strided_range(mesh: Mesh, ref: AxisRef) -> tuple[int, int]:
    """[lo, hi): the part of an iota device id `ref` is the digit of, multiplicatively
    from the minor end (device id // lo % (hi // lo))."""
    stride = 1
    for name, size in reversed(mesh.axes):
        if name == ref.name:
            pre, end = ref.span(mesh)  # from the major end of the axis
            return stride * size // end, stride * size // pre
        stride *= size
    raise KeyError(ref.name)


def mesh_axes_attr(mesh: Mesh, axes: Sequence[AxisRef], frame: Mesh | None = None
                   ) -> ir.Attribute | None:
    """replica_groups(mesh, axes) as #stablehlo.replica_group_mesh_axes over the mesh
    `frame` (an iota mesh of as many devices: attribute_mesh(mesh) by default; one per
    module, as XLA reads one). None where that cannot be said: no frame, or an axis of
    `mesh` whose digits do not fall on whole frame axes or sub-axes."""
    frame = attribute_mesh(mesh) if frame is None else frame
    if frame is None or mesh.device_ids or mesh.size != frame.size:
        return None
    spans = []  # frame axes, major first, with [lo, hi) in strided units
    stride = frame.size
    for name, size in frame.axes:
        spans.append((name, stride // size, stride))
        stride //= size
    pieces = []  # [frame axis, its size, [u, v): the part of it, in minor units]
    for ref in axes:
        lo, hi = strided_range(mesh, ref)
        for name, f_lo, f_hi in spans:  # major first: the ref's digits major to minor
            a, b = max(lo, f_lo), min(hi, f_hi)
            if a >= b:
                continue
            if a % f_lo or b % a or f_hi % b:
                return None  # the digit crosses a frame axis off a sub-axis boundary
            u, v = a // f_lo, b // f_lo
            if pieces and pieces[-1][0] == name and pieces[-1][2] == v:
                # The rest of the previous sub-axis' frame axis, just below it: one
                # sub-axis (XLA rejects a list whose adjacent axes could merge, e.g.
                # x':(1)2, x':(2)2 where mesh axis x=8 is framed as x=2, x'=4).
                pieces[-1][2] = u
            else:
                pieces.append([name, f_hi // f_lo, u, v])
    refs = [stablehlo.AxisRefAttr.get(name, None if (u, v) == (1, size) else
                                      stablehlo.SubAxisInfoAttr.get(size // v, v // u))
            for name, size, u, v in pieces]
    mesh_attr = stablehlo.MeshAttr.get(ir.ArrayAttr.get(
        [stablehlo.MeshAxisAttr.get(name, size) for name, size in frame.axes]))
    return stablehlo.ReplicaGroupMeshAxesAttr.get(mesh_attr, ir.ArrayAttr.get(refs))


def groups_of(attr: ir.Attribute) -> tuple[tuple[int, ...], ...] | None:
    """The device groups a replica_groups attribute lists, in either form (a dense
    list's -1 padding dropped); None for a mesh named by symbol (`mesh = @m`)."""
    if stablehlo.ReplicaGroupMeshAxesAttr.isinstance(attr):
        found = _mesh_axes(attr)
        return None if found is None else replica_groups(*found)
    dense = ir.DenseIntElementsAttr(attr)
    shape = ir.ShapedType(dense.type).shape
    width = shape[1] if len(shape) == 2 else 0
    values = list(dense)
    return tuple(tuple(d for d in values[i:i + width] if d >= 0)
                 for i in range(0, len(values), max(width, 1)))


def group_size_of(attr: ir.Attribute) -> int:
    """Devices in one group of a replica_groups attribute (0 for an empty list, and for
    a mesh named by symbol, `mesh = @m`, whose sizes the attribute does not hold)."""
    if stablehlo.ReplicaGroupMeshAxesAttr.isinstance(attr):
        found = _mesh_axes(attr)
        if found is None:
            return 0
        mesh, axes = found
        return math.prod(ref.size(mesh) for ref in axes)
    shape = ir.ShapedType(ir.DenseIntElementsAttr(attr).type).shape
    return shape[1] if len(shape) == 2 else 0


def _mesh_axes(attr: ir.Attribute) -> tuple[Mesh, tuple[AxisRef, ...]] | None:
    form = stablehlo.ReplicaGroupMeshAxesAttr(attr)
    if not stablehlo.MeshAttr.isinstance(form.mesh):
        return None
    mesh_attr = stablehlo.MeshAttr(form.mesh)
    mesh = Mesh(tuple((stablehlo.MeshAxisAttr(a).name, stablehlo.MeshAxisAttr(a).size)
                      for a in mesh_attr.axes))
    axes = []
    for a in form.axes:
        ref = stablehlo.AxisRefAttr(a)
        sub = ref.sub_axis_info
        if sub is not None:
            info = stablehlo.SubAxisInfoAttr(sub)
            axes.append(AxisRef(ref.name, (info.pre_size, info.size)))
        else:
            axes.append(AxisRef(ref.name))
    return mesh, tuple(axes)
