"""The sharding model: meshes, axis references, dimension and tensor shardings.

Pure Python and hashable: no MLIR objects inside, so passes can key dictionaries on
shardings and compare them cheaply. `sdy_codec` converts to and from sdy attributes.

Semantics follow Shardy:
  * A mesh is a list of named axes (major to minor) and optional `device_ids`: the
    logical device at each mesh position in row-major order (iota when absent).
  * A sub-axis `"x":(m)k` of an axis of size n views the axis as [m, k, n/(m*k)]
    (major to minor) and names the middle dimension; m is the "pre-size".
  * A dimension sharded on axes [a, b] is split into size(a)*size(b) shards, a
    major: shard index = coord(a) * size(b) + coord(b).
  * Shards have ceil(dim / shards) elements; the last ones are padded (as XLA does).
  * `unreduced` axes: every device on such an axis holds a partial value; the
    true value is the sum over that axis. `replicated` axes are explicitly not
    shardable further.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, NamedTuple, Sequence


class ShardingError(ValueError):
    """A sharding that is not valid for its mesh or tensor (no location: callers add it)."""


# --------------------------------------------------------------------------- mesh


@dataclass(frozen=True)
class Mesh:
    axes: tuple[tuple[str, int], ...] = ()
    device_ids: tuple[int, ...] = ()  # empty: iota over the mesh's positions

    def __post_init__(self):
        object.__setattr__(self, "axes", tuple((str(n), int(s)) for n, s in self.axes))
        ids = tuple(int(d) for d in self.device_ids)
        # sdy prints no device_ids for the identity order; normalise so equal meshes compare equal.
        if ids and len(ids) == self.size and ids == tuple(range(len(ids))) and self.axes:
            ids = ()
        object.__setattr__(self, "device_ids", ids)

    @cached_property
    def axis_sizes(self) -> dict[str, int]:
        return dict(self.axes)

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.axes)

    @cached_property
    def size(self) -> int:
        return math.prod(size for _, size in self.axes)

    @property
    def is_maximal(self) -> bool:
        """`<[], device_ids=[k]>`: the whole tensor lives on logical device k."""
        return not self.axes and len(self.device_ids) == 1

    @property
    def is_empty(self) -> bool:
        """`<[]>`: no axes, no devices named; every sharding on it is replicated."""
        return not self.axes and not self.device_ids

    @cached_property
    def devices(self) -> tuple[int, ...]:
        """Logical device id at each mesh position (row-major over the axes)."""
        return self.device_ids or tuple(range(self.size))

    @cached_property
    def _position_of(self) -> dict[int, int]:
        return {device: pos for pos, device in enumerate(self.devices)}

    def contains_device(self, device: int) -> bool:
        return self.is_empty or device in self._position_of

    def coordinates(self, device: int) -> dict[str, int]:
        """Coordinate of logical `device` along each full mesh axis."""
        pos = self._position_of[device]
        coords = {}
        for name, size in reversed(self.axes):
            pos, coords[name] = divmod(pos, size)
        return coords

    def validate(self) -> None:
        seen = set()
        for name, size in self.axes:
            if name in seen:
                raise ShardingError(f"mesh axis \"{name}\" is declared twice")
            seen.add(name)
            if size < 1:
                raise ShardingError(f"mesh axis \"{name}\" has size {size}; sizes must be >= 1")
        if self.device_ids:
            expected = 1 if not self.axes else self.size
            if len(self.device_ids) != expected:
                raise ShardingError(
                    f"mesh has {self.size} positions but {len(self.device_ids)} device ids")
            if self.axes and sorted(self.device_ids) != list(range(self.size)):
                raise ShardingError(
                    f"mesh device ids {list(self.device_ids)} are not a permutation of "
                    f"0..{self.size - 1}")
            if not self.axes and self.device_ids[0] < 0:
                raise ShardingError(f"maximal mesh device id {self.device_ids[0]} is negative")

    def __str__(self) -> str:
        axes = ", ".join(f'"{n}"={s}' for n, s in self.axes)
        ids = f", device_ids=[{', '.join(map(str, self.device_ids))}]" if self.device_ids else ""
        return f"<[{axes}]{ids}>"


# --------------------------------------------------------------------------- axes


class AxisRef(NamedTuple):
    """A mesh axis, or the sub-axis `"name":(pre_size)size` of one.

    A named tuple, not a frozen dataclass: hashing and comparing refs is what the
    planners and propagation do most, and a tuple does both in C (the same hash value
    as the dataclass's, so no set iterates otherwise)."""

    name: str
    sub: tuple[int, int] | None = None  # (pre_size, size)

    def size(self, mesh: Mesh) -> int:
        return self.sub[1] if self.sub else mesh.axis_sizes[self.name]

    def span(self, mesh: Mesh) -> tuple[int, int]:
        """[pre_size, pre_size * size): the part of the axis this ref covers, multiplicatively."""
        if self.sub:
            return self.sub[0], self.sub[0] * self.sub[1]
        return 1, mesh.axis_sizes[self.name]

    def overlaps(self, other: "AxisRef", mesh: Mesh) -> bool:
        if self.name != other.name:
            return False
        lo1, hi1 = self.span(mesh)
        lo2, hi2 = other.span(mesh)
        return max(lo1, lo2) < min(hi1, hi2)

    def can_coexist(self, other: "AxisRef", mesh: Mesh) -> bool:
        """Both lie in one decomposition of the axis (axis_algebra.can_coexist): the end
        points of their intervals, sorted, each divide the next."""
        if self.name != other.name:
            return True
        points = sorted({*self.span(mesh), *other.span(mesh)})
        return all(hi % lo == 0 for lo, hi in zip(points, points[1:]))

    def coordinate(self, mesh: Mesh, axis_coords: dict[str, int]) -> int:
        """This ref's coordinate for a device whose full-axis coordinates are given."""
        coord = axis_coords[self.name]
        if self.sub is None:
            return coord
        pre, size = self.sub
        minor = mesh.axis_sizes[self.name] // (pre * size)
        return (coord // minor) % size

    def validate(self, mesh: Mesh) -> None:
        if self.name not in mesh.axis_sizes:
            known = ", ".join(f'"{n}"' for n in mesh.axis_names) or "none"
            raise ShardingError(f"unknown axis \"{self.name}\" (mesh axes: {known})")
        if self.sub:
            pre, size = self.sub
            full = mesh.axis_sizes[self.name]
            if pre < 1 or size <= 1:
                raise ShardingError(
                    f"sub-axis {self} must have pre-size >= 1 and size > 1")
            if full % (pre * size):
                raise ShardingError(
                    f"sub-axis {self}: pre-size {pre} times size {size} does not divide "
                    f"the size {full} of axis \"{self.name}\"")
            if pre * size == full and pre == 1:
                raise ShardingError(f"sub-axis {self} is the whole axis; write \"{self.name}\"")

    def __str__(self) -> str:
        if self.sub:
            return f'"{self.name}":({self.sub[0]}){self.sub[1]}'
        return f'"{self.name}"'


def axes_size(axes: Iterable[AxisRef], mesh: Mesh) -> int:
    return math.prod(a.size(mesh) for a in axes)


# --------------------------------------------------------------------------- shardings


@dataclass(frozen=True)
class DimSharding:
    axes: tuple[AxisRef, ...] = ()
    closed: bool = True
    priority: int | None = None

    def __str__(self) -> str:
        parts = [str(a) for a in self.axes]
        if not self.closed:
            parts.append("?")
        prio = f"p{self.priority}" if self.priority is not None else ""
        return "{" + ", ".join(parts) + "}" + prio


@dataclass(frozen=True)
class TensorSharding:
    """How one tensor value is laid out over one mesh.

    `mesh_name` is the symbol of an `sdy.mesh` op (None when the mesh is inlined).
    """

    mesh: Mesh
    dims: tuple[DimSharding, ...]
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    mesh_name: str | None = field(default=None)

    def __hash__(self) -> int:
        # The dataclass's hash, once per object (shardings key the planners' memos, and
        # hashing one again walked its mesh and dims); not pickled (__getstate__):
        # string hashes differ between processes.
        found = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash(
                (self.mesh, self.dims, self.replicated, self.unreduced, self.mesh_name))
        return found

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    @staticmethod
    def replicated_on(mesh: Mesh, rank: int, mesh_name: str | None = None,
                      closed: bool = True) -> "TensorSharding":
        return TensorSharding(mesh, tuple(DimSharding((), closed) for _ in range(rank)),
                              mesh_name=mesh_name)

    @property
    def rank(self) -> int:
        return len(self.dims)

    def all_axes(self) -> list[AxisRef]:
        """Every axis ref the sharding names, dims first (major to minor), then the rest."""
        return [a for d in self.dims for a in d.axes] + list(self.replicated) + list(self.unreduced)

    @property
    def is_fully_replicated(self) -> bool:
        return not any(d.axes for d in self.dims) and not self.unreduced

    def dim_shards(self, dim: int) -> int:
        return self.shards_per_dim[dim]

    # -- validity -----------------------------------------------------------------
    def validate(self, shape: Sequence[int] | None = None) -> None:
        """Raise ShardingError for anything sdy's verifier would reject."""
        self.mesh.validate()
        if shape is not None and len(shape) != self.rank:
            raise ShardingError(
                f"sharding has {self.rank} dimension(s) but the tensor has rank {len(shape)}")
        if self.mesh.is_maximal and (any(d.axes for d in self.dims) or self.replicated
                                     or self.unreduced):
            raise ShardingError("a sharding on a maximal mesh cannot name axes")
        used: list[AxisRef] = []
        for where, refs in self._named_axis_groups():
            for ref in refs:
                ref.validate(self.mesh)
                for prev in used:
                    if ref.overlaps(prev, self.mesh):
                        what = "is used twice" if ref == prev else f"overlaps {prev}"
                        raise ShardingError(f"axis {ref} in {where} {what}")
                    if not ref.can_coexist(prev, self.mesh):
                        raise ShardingError(
                            f"axis {ref} in {where} and {prev} are sub-axes of different "
                            f"decompositions of axis \"{ref.name}\" and cannot shard one "
                            f"tensor together")
                used.append(ref)
        for i, d in enumerate(self.dims):
            if d.priority is not None and d.priority < 0:
                raise ShardingError(f"dimension {i} has a negative priority")
            if d.priority is not None and d.closed and not d.axes:
                raise ShardingError(
                    f"dimension {i} is closed and empty, so its priority p{d.priority} "
                    f"has nothing to act on")

    def _named_axis_groups(self):
        for i, d in enumerate(self.dims):
            yield f"dimension {i}", d.axes
        yield "replicated axes", self.replicated
        yield "unreduced axes", self.unreduced

    # -- shapes and slices ----------------------------------------------------------
    @cached_property
    def shards_per_dim(self) -> tuple[int, ...]:
        """How many shards each dim has (computed once: shardings are immutable, and
        the planners ask for local shapes many thousand times)."""
        return tuple(axes_size(d.axes, self.mesh) for d in self.dims)

    def local_shape(self, global_shape: Sequence[int]) -> tuple[int, ...]:
        """Per-device shape: ceil(dim / shards), as XLA pads uneven shards."""
        shards = self.shards_per_dim
        if len(global_shape) > len(shards):
            raise IndexError(f"a shape of rank {len(global_shape)} for a sharding of rank "
                             f"{len(shards)}")
        return tuple(-(-size // k) for size, k in zip(global_shape, shards))

    def shard_index(self, device: int) -> tuple[int, ...]:
        """For each dim, which shard `device` holds (mixed radix, major axis first)."""
        if self.mesh.is_empty or self.mesh.is_maximal:
            return (0,) * self.rank
        coords = self.mesh.coordinates(device)
        index = []
        for d in self.dims:
            i = 0
            for ref in d.axes:
                i = i * ref.size(self.mesh) + ref.coordinate(self.mesh, coords)
            index.append(i)
        return tuple(index)

    def unreduced_index(self, device: int) -> tuple[int, ...]:
        """Coordinates of `device` along the unreduced axes (devices summed together)."""
        if not self.unreduced:
            return ()
        coords = self.mesh.coordinates(device)
        return tuple(ref.coordinate(self.mesh, coords) for ref in self.unreduced)

    def device_slices(self, global_shape: Sequence[int], device: int
                      ) -> tuple[slice, ...] | None:
        """The part of the global tensor that logical `device` holds, or None.

        Slices are clipped to the global shape: a padded shard's slice is shorter
        than `local_shape` (or empty). None when the device is not in the mesh.
        """
        if not self.mesh.contains_device(device):
            return None
        local = self.local_shape(global_shape)
        return tuple(slice(min(i * n, size), min((i + 1) * n, size))
                     for i, n, size in zip(self.shard_index(device), local, global_shape))

    # -- text -------------------------------------------------------------------------
    def __str__(self) -> str:
        mesh = f"@{self.mesh_name}" if self.mesh_name else f"mesh{self.mesh}"
        dims = ", ".join(str(d) for d in self.dims)
        extra = ""
        if self.replicated:
            extra += ", replicated={" + ", ".join(map(str, self.replicated)) + "}"
        if self.unreduced:
            extra += ", unreduced={" + ", ".join(map(str, self.unreduced)) + "}"
        return f"<{mesh}, [{dims}]{extra}>"
