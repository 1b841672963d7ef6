"""GSPMD sharding strings (`mhlo.sharding`, HLO `sharding={...}`) ⇄ the sharding model.

XLA's own code reads and prints the strings (`HloSharding`, through jaxlib_bridge);
this module only maps tile assignments onto named mesh axes and back.

Import happens in two steps, so that one mesh can serve a whole module:

  parse_gspmd(text, rank) -> Tiling     what the string says, before any mesh exists
  MeshPlan(tilings)                     meshes whose axes and device order reproduce
                                        every tiling; plan.express(tiling) -> GspmdSharding

  {replicated}                        -> closed empty dims (on the plan's first mesh)
  {maximal device=k}                  -> mesh <[], device_ids=[k]>
  {manual}                            -> no tensor sharding (the value is per-device)
  {devices=[2,1,4]<=[8] last_tile_dim_replicate}
                                      -> mesh <["axis_0"=2, "axis_1"=4]>, [{"axis_0"}, {}]
  {devices=[2,4]<=[4,2]T(1,0)}        -> mesh <["axis_0"=4, "axis_1"=2]>,
                                         [{"axis_1"}, {"axis_0"}]
  {devices=[2,2]0,2,1,3}              -> same as the iota form it equals; a device list
                                         that is no transposed iota gets device_ids

A tiling is read as "the devices, in some base order, cut into factors (major to
minor); each tile dim takes some consecutive factors". The base order is iota when
the tile assignment is a transposed iota (found exactly, `iota_form`), else an
explicit device list. Tilings on the same base share a mesh when their factor
boundaries nest (a divisibility chain): the mesh's axes are the common refinement,
so every tile dim is a run of whole axes. Tilings that cannot share get another mesh.

Export (`export_gspmd`) goes the other way: mesh axes are split at the sub-axes the
sharding uses, the devices reshaped to those pieces and transposed into tile order,
and XLA prints the result (`<=[..]T(..)` forms for meshes without device_ids).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Collection, Iterable, Sequence

from ..sharding.model import AxisRef, DimSharding, Mesh, ShardingError, TensorSharding

MANUAL, REPLICATED = "MANUAL", "REPLICATED"


@dataclass(frozen=True)
class GspmdSharding:
    """One imported sharding: `sharding` is None when the value is fully manual.

    `manual_axes` are the axes of a manual subgroup (`last_tile_dims={manual}`): they
    are not in `sharding`, which says how the value is laid out over the other axes.
    """

    mesh: Mesh
    sharding: TensorSharding | None
    manual_axes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tiling:
    """What one GSPMD sharding string says, before any mesh is chosen.

    kind: "tiled", "replicated", "maximal" or "manual". For "tiled": `devices` in
    row-major order over `tile_dims`, whose last len(subgroups) dims are subgroups
    ("MANUAL" or "REPLICATED"); `iota` is XLA's (reshape, perm) when it has one.
    For "maximal": devices = (k,).
    """

    text: str
    rank: int
    kind: str
    devices: tuple[int, ...] = ()
    tile_dims: tuple[int, ...] = ()
    subgroups: tuple[str, ...] = ()
    iota: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def num_devices(self) -> int:
        return len(self.devices)


# --------------------------------------------------------------------------- parsing


def _parse(text: str):
    from ..ir import jaxlib_bridge

    try:
        return jaxlib_bridge.hlo_sharding_from_string(text)
    except Exception as err:  # XLA raises a plain runtime error with its parser message
        raise ShardingError(f"cannot parse GSPMD sharding '{text}': {err}") from None


def parse_gspmd(text: str, rank: int | tuple[int, ...]) -> Tiling | list[Tiling]:
    """Parse one sharding for a value of `rank` (a tuple of ranks: one per tuple element).

    A tuple sharding gives a list (one Tiling per element); a plain one a Tiling.
    """
    hlo = _parse(text)
    elements = hlo.tuple_elements()  # must come first: tile queries abort on tuples
    if elements:
        ranks = rank if isinstance(rank, tuple) else (rank,) * len(elements)
        if len(ranks) != len(elements):
            raise ShardingError(
                f"tuple sharding '{text}' has {len(elements)} elements for {len(ranks)} values")
        return [_tiling(e, r, str(e)) for e, r in zip(elements, ranks)]
    if isinstance(rank, tuple):
        if len(rank) != 1:
            raise ShardingError(f"sharding '{text}' is not a tuple but {len(rank)} values need one")
        rank = rank[0]
    return _tiling(hlo, rank, text)


def _tiling(hlo, rank: int, text: str) -> Tiling:
    if hlo.is_unknown():
        raise ShardingError(f"sharding '{text}' is unknown; nothing to import")
    if hlo.is_manual():
        return Tiling(text, rank, "manual")
    if hlo.is_replicated():
        return Tiling(text, rank, "replicated")
    if hlo.is_maximal():
        return Tiling(text, rank, "maximal", (int(hlo.tile_assignment_devices()[0]),))
    tile_dims = tuple(int(d) for d in hlo.tile_assignment_dimensions())
    subgroups = tuple(str(t).rsplit(".", 1)[-1] for t in hlo.subgroup_types())
    if hlo.replicate_on_last_tile_dim():
        subgroups = (REPLICATED,)
    if len(tile_dims) != rank + len(subgroups):
        raise ShardingError(
            f"sharding '{text}' tiles {len(tile_dims) - len(subgroups)} dimension(s) of a "
            f"rank-{rank} value")
    devices = tuple(int(d) for d in hlo.tile_assignment_devices())
    if sorted(devices) != list(range(len(devices))):
        raise ShardingError(f"sharding '{text}': devices {list(devices)} are not a "
                            f"permutation of 0..{len(devices) - 1}")
    proto = hlo.to_proto()
    iota = None
    if proto.iota_reshape_dims:
        iota = (tuple(proto.iota_reshape_dims), tuple(proto.iota_transpose_perm))
    return Tiling(text, rank, "tiled", devices, tile_dims, subgroups, iota)


# --------------------------------------------------------------------------- layouts


@dataclass(frozen=True)
class _Layout:
    """A tiling relative to a base device order: `pieces` cut the base positions
    (major to minor); tile dim i takes the pieces `owners[i]`, major to minor."""

    pieces: tuple[int, ...]
    owners: tuple[tuple[int, ...], ...]

    def starts(self) -> list[int]:
        """Where each piece starts: the product of the pieces more major than it."""
        out, acc = [], 1
        for size in self.pieces:
            out.append(acc)
            acc *= size
        return out

    def boundaries(self) -> set[int]:
        return set(self.starts()) | {math.prod(self.pieces)}


def iota_form(positions: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """(R, P) with positions == iota(R).transpose(P).ravel(), or None.

    Reads the tile-linear index as mixed-radix digits from the minor end: each digit
    is a maximal run on which positions grow by one stride. Digits whose strides
    continue each other merge (harmless: a merged digit is still linear).
    """
    import numpy as np

    n = len(positions)
    if n == 0 or positions[0] != 0:
        return None
    digits: list[tuple[int, int]] = []  # (size, stride), tile-minor first
    block = 1
    while block < n:
        stride = positions[block]
        size = 1
        while block * (size + 1) <= n and positions[block * size] == size * stride:
            size += 1
        while (n // block) % size:  # a run may end inside the next digit's range
            size -= 1
        if size <= 1:
            return None
        digits.append((size, stride))
        block *= size
    order = sorted(range(len(digits)), key=lambda k: digits[k][1])  # by stride: iota minor first
    expected = 1
    for k in order:
        if digits[k][1] != expected:
            return None
        expected *= digits[k][0]
    iota_major = list(reversed(order))  # R major to minor
    reshape = [digits[k][0] for k in iota_major]
    perm = [iota_major.index(k) for k in reversed(range(len(digits)))]  # tile major first
    if not reshape:
        reshape, perm = [1], [0]
    got = np.arange(n).reshape(reshape).transpose(perm).ravel()
    return (reshape, perm) if np.array_equal(got, np.asarray(positions)) else None


def _factor(reshape: Sequence[int], perm: Sequence[int], tile_dims: Sequence[int]
            ) -> _Layout | None:
    """Common refinement of iota dims and tile dims, or None if sizes don't nest."""
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
    index: dict[tuple[int, int], int] = {}
    flat: list[int] = []
    for r, sizes_r in enumerate(pieces):
        for k, size in enumerate(sizes_r):
            index[(r, k)] = len(flat)
            flat.append(size)
    return _Layout(tuple(flat), tuple(tuple(index[key] for key in keys) for keys in owner))


def _layout(tiling: Tiling, base: tuple[int, ...] | None) -> _Layout | None:
    """`tiling` on the base device order (None: iota), or None if it is no
    transposed reshape of that order."""
    if base is None and tiling.iota is not None:
        reshape, perm = tiling.iota
    else:
        if base is None:
            positions = list(tiling.devices)
        else:
            where = {device: pos for pos, device in enumerate(base)}
            positions = [where[d] for d in tiling.devices]
        form = iota_form(_replicas_in_order(tiling, positions))
        if form is None:
            return None
        reshape, perm = form
    return _factor(reshape, perm, tiling.tile_dims)


def _replicas_in_order(tiling: Tiling, positions: list[int]) -> list[int]:
    """`positions` (base positions of the tiling's devices) with each replicated
    subgroup's devices in base order. The order inside a replicated group means
    nothing, and XLA prints it sorted by device id (`{devices=[2,2]2,3,0,1
    last_tile_dim_replicate}` for the tiles [3,2] and [1,0] of a mesh ordered 3,2,1,0):
    in base order the tiling is the base's transposed reshape it is, not another mesh.
    (Along every tile dim of such a reshape positions increase, so ordering can only
    find a layout, never lose one.)"""
    import numpy as np

    replicated = [tiling.rank + i for i, kind in enumerate(tiling.subgroups)
                  if kind == REPLICATED]
    if not replicated:
        return positions
    tiles = np.array(positions).reshape(tiling.tile_dims)
    order = [d for d in range(tiles.ndim) if d not in replicated] + replicated
    moved = tiles.transpose(order)
    group = math.prod(moved.shape[-len(replicated):])
    ordered = np.sort(moved.reshape(-1, group), axis=1).reshape(moved.shape)
    return [int(p) for p in ordered.transpose(np.argsort(order)).ravel()]


def _joint_orders(tilings: Sequence[Tiling]) -> list[tuple[int, tuple[int, ...]]]:
    """Per device count, one more base: the devices sorted by their tile coordinates in
    every tiling (replicated subgroups left out). Where XLA printed each sharding's
    replicated groups sorted by id, no sharding's own device list may be the mesh's
    order (a mesh ordered 2,6,1,3,5,4,7,0 over "a","b","c" shows up as
    `{devices=[2,4]1,2,5,7,0,3,4,6 last_tile_dim_replicate}` for "c" and
    `{devices=[2,4]2,4,5,6,0,1,3,7 last_tile_dim_replicate}` for "b"); sorted by what
    the tilings say of each device, the devices come out in an order of that mesh's
    axes (here "b","c" then the rest), which all of them tile."""
    import numpy as np

    by_count: dict[int, list[Tiling]] = {}
    for t in tilings:
        if t.devices and sorted(t.devices) == list(range(t.num_devices)):
            by_count.setdefault(t.num_devices, []).append(t)
    out = []
    for n, group in by_count.items():
        keys: list[list[int]] = [[] for _ in range(n)]
        for t in group:
            kept = [d for d in range(len(t.tile_dims)) if d < t.rank or
                    t.subgroups[d - t.rank] != REPLICATED]
            for index, device in enumerate(t.devices):
                coords = np.unravel_index(index, t.tile_dims)
                keys[device].append(int(np.ravel_multi_index(
                    [coords[d] for d in kept], [t.tile_dims[d] for d in kept])) if kept else 0)
        out.append((n, tuple(sorted(range(n), key=lambda d: keys[d]))))
    return out


def _is_chain(bounds: Iterable[int]) -> bool:
    ordered = sorted(bounds)
    return all(b % a == 0 for a, b in zip(ordered, ordered[1:]))


# --------------------------------------------------------------------------- mesh planning


@dataclass
class _PlannedMesh:
    name: str
    base: tuple[int, ...] | None
    num_devices: int
    bounds: set[int]
    mesh: Mesh | None = None

    def build(self) -> None:
        ordered = sorted(self.bounds)
        sizes = [b // a for a, b in zip(ordered, ordered[1:])]
        self.mesh = Mesh(tuple((f"axis_{i}", s) for i, s in enumerate(sizes)), self.base or ())
        self.ordered = ordered

    def axes_of(self, start: int, size: int) -> tuple[str, ...]:
        """The mesh axes that make up the piece [start, start * size)."""
        return tuple(f"axis_{j}" for j, lo in enumerate(self.ordered[:-1])
                     if lo >= start and self.ordered[j + 1] <= start * size)


class MeshPlan:
    """Meshes for a set of tilings (one per device order, more where factors clash).

    Meshes are named `mesh`, `mesh_1`, ... (skipping `taken` names); maximal
    shardings get `maximal_mesh_<k>`. Replicated shardings live on the first of the
    largest meshes, or on an empty `mesh` when nothing is tiled. `{manual}` is manual
    over every partition: where nothing tiled says how many there are, a mesh of one
    axis over `num_partitions` devices (the module's mhlo.num_partitions) holds them,
    so that the manual region's collectives keep their groups.
    """

    def __init__(self, tilings: Iterable[Tiling], taken: Collection[str] = (),
                 num_partitions: int | None = None):
        self._taken = set(taken)
        self._planned: list[_PlannedMesh] = []
        self._placed: dict[Tiling, tuple[_PlannedMesh, _Layout]] = {}
        self._layouts: dict[tuple[Tiling, tuple[int, ...] | None], _Layout | None] = {}
        unique = list(dict.fromkeys(tilings))
        self._plan_tiled([t for t in unique if t.kind == "tiled"])
        if not self._planned and num_partitions and num_partitions > 1 and any(
                t.kind == "manual" for t in unique):
            every = _PlannedMesh(self._name("mesh"), None, num_partitions,
                                 {1, num_partitions})
            every.build()
            self._planned.append(every)
        self._maximal = {}
        for t in unique:
            if t.kind == "maximal" and t.devices[0] not in self._maximal:
                self._maximal[t.devices[0]] = self._name(f"maximal_mesh_{t.devices[0]}")
        self._empty = None
        if not self._planned and any(t.kind == "replicated" for t in unique):
            self._empty = self._name("mesh")

    def _name(self, wanted: str) -> str:
        name, k = wanted, 0
        while name in self._taken:
            k += 1
            name = f"{wanted}_{k}"
        self._taken.add(name)
        return name

    def _layout_on(self, tiling: Tiling, base) -> _Layout | None:
        key = (tiling, base)
        if key not in self._layouts:
            self._layouts[key] = _layout(tiling, base)
        return self._layouts[key]

    def _plan_tiled(self, pending: list[Tiling]) -> None:
        while pending:
            # Bases: iota first, then the explicit orders in order of appearance; the
            # one that expresses most of what is left wins (fewest meshes, greedily).
            candidates = list(dict.fromkeys([(t.num_devices, None) for t in pending]
                                            + [(t.num_devices, t.devices) for t in pending]
                                            + _joint_orders(pending)))
            best, covered = None, []
            for n, base in candidates:
                fits = [t for t in pending if t.num_devices == n
                        and self._layout_on(t, base) is not None]
                if len(fits) > len(covered):
                    best, covered = (n, base), fits
            n, base = best
            mine: list[_PlannedMesh] = []
            for t in covered:
                layout = self._layout_on(t, base)
                bounds = layout.boundaries()
                target = next((m for m in mine if _is_chain(m.bounds | bounds)), None)
                if target is None:
                    target = _PlannedMesh("", base, n, {1, n})
                    mine.append(target)
                target.bounds |= bounds
                self._placed[t] = (target, layout)
            for m in mine:
                m.name = self._name("mesh")
                m.build()
            self._planned += mine
            pending = [t for t in pending if t not in self._placed]

    # -- results ------------------------------------------------------------------
    @property
    def meshes(self) -> list[tuple[str, Mesh]]:
        """Every mesh the plan needs, in order: tiled ones, the empty one, maximal ones."""
        out = [(m.name, m.mesh) for m in self._planned]
        if self._empty:
            out.append((self._empty, Mesh()))
        out += [(name, Mesh((), (k,))) for k, name in self._maximal.items()]
        return out

    def default_mesh(self) -> tuple[str, Mesh] | None:
        """Where replicated values go: the first of the meshes with the most devices
        (GSPMD's `{replicated}` is every partition; a mesh planned for a sharding over
        some of them would hold the value on those only)."""
        if self._planned:
            largest = max(self._planned, key=lambda m: m.num_devices)
            return largest.name, largest.mesh
        if self._empty:
            return self._empty, Mesh()
        return None

    def mesh_named(self, name: str) -> Mesh | None:
        return dict(self.meshes).get(name)

    def express(self, tiling: Tiling, replicated_on: str | None = None) -> GspmdSharding:
        """The tiling on its planned mesh (replicated ones on `replicated_on` when given)."""
        if tiling.kind == "manual":
            return GspmdSharding(Mesh(), None)
        if tiling.kind == "maximal":
            name = self._maximal[tiling.devices[0]]
            mesh = Mesh((), tiling.devices)
            return GspmdSharding(mesh, TensorSharding.replicated_on(mesh, tiling.rank, name))
        if tiling.kind == "replicated":
            name, mesh = ((replicated_on, self.mesh_named(replicated_on)) if replicated_on
                          else self.default_mesh())
            return GspmdSharding(mesh, TensorSharding.replicated_on(mesh, tiling.rank, name))
        planned, layout = self._placed[tiling]
        starts = layout.starts()

        def axes(owners: Sequence[int]) -> tuple[str, ...]:
            return tuple(a for k in owners for a in planned.axes_of(starts[k], layout.pieces[k]))

        dims = tuple(DimSharding(tuple(AxisRef(a) for a in axes(layout.owners[i])))
                     for i in range(tiling.rank))
        manual = tuple(a for i, kind in enumerate(tiling.subgroups) if kind == MANUAL
                       for a in axes(layout.owners[tiling.rank + i]))
        sharding = TensorSharding(planned.mesh, dims, mesh_name=planned.name)
        return GspmdSharding(planned.mesh, sharding, manual)


def import_gspmd(text: str, rank: int | tuple[int, ...]) -> GspmdSharding | list[GspmdSharding]:
    """Import one sharding string on a mesh planned for it alone (meshes unnamed)."""
    parsed = parse_gspmd(text, rank)
    tilings = parsed if isinstance(parsed, list) else [parsed]
    plan = MeshPlan(tilings)
    out = []
    for t in tilings:
        imported = plan.express(t) if t.kind != "replicated" else GspmdSharding(
            Mesh(), TensorSharding.replicated_on(Mesh(), t.rank))
        if imported.sharding is not None:
            imported = replace(imported, sharding=replace(imported.sharding, mesh_name=None))
        out.append(imported)
    return out if isinstance(parsed, list) else out[0]


# --------------------------------------------------------------------------- export


def _atoms(sharding: TensorSharding, manual_axes: Collection[str]) -> list[tuple[str, int, int]]:
    """Mesh axes split where the sharding's sub-axes start and end: (axis, start, size),
    in device order (major to minor); size-1 pieces left out."""
    mesh = sharding.mesh
    cuts: dict[str, set[int]] = {name: {1, size} for name, size in mesh.axes}
    for ref in sharding.all_axes():
        if ref.sub:
            cuts[ref.name] |= {ref.sub[0], ref.sub[0] * ref.sub[1]}
    atoms = []
    for name, size in mesh.axes:
        if not _is_chain(cuts[name]):
            raise ShardingError(f"the sub-axes of \"{name}\" in {sharding} do not nest; GSPMD "
                                f"cannot express them")
        ordered = sorted(cuts[name])
        atoms += [(name, lo, hi // lo) for lo, hi in zip(ordered, ordered[1:]) if hi > lo]
    return atoms


def export_gspmd(sharding: TensorSharding, manual_axes: Collection[str] = ()) -> str:
    """The GSPMD string for `sharding`; `manual_axes` (inside a manual computation)
    become a manual subgroup. Unreduced axes have no GSPMD form: an error."""
    from ..ir import jaxlib_bridge

    mesh = sharding.mesh
    if sharding.unreduced:
        raise ShardingError(f"{sharding} has unreduced axes; GSPMD cannot express partial "
                            f"values")
    if mesh.is_maximal:
        return jaxlib_bridge.gspmd_simple("maximal", mesh.device_ids[0])
    manual = [name for name in mesh.axis_names if name in manual_axes]
    sharded = any(ref.size(mesh) > 1 for d in sharding.dims for ref in d.axes)
    manual_size = math.prod(mesh.axis_sizes[a] for a in manual)
    if not sharded and manual_size == 1:
        return jaxlib_bridge.gspmd_simple("replicated")
    if not sharded and manual_size == mesh.size:
        return jaxlib_bridge.gspmd_simple("manual")
    atoms = _atoms(sharding, manual)

    def atoms_of(ref: AxisRef) -> list[int]:
        lo, hi = ref.span(mesh)
        return [k for k, (name, start, size) in enumerate(atoms)
                if name == ref.name and start >= lo and start * size <= hi]

    perm: list[int] = []
    tile_dims: list[int] = []
    for d in sharding.dims:
        mine = [k for ref in d.axes for k in atoms_of(ref)]
        perm += mine
        tile_dims.append(math.prod(atoms[k][2] for k in mine))
    subgroups: list[str] = []
    if manual:
        mine = [k for a in manual for k in atoms_of(AxisRef(a))]
        perm += mine
        tile_dims.append(manual_size)
        subgroups.append(MANUAL)
    rest = [k for k in range(len(atoms)) if k not in set(perm)]
    if rest:
        perm += rest
        tile_dims.append(math.prod(atoms[k][2] for k in rest))
        subgroups.append(REPLICATED)
    reshape = [size for _, _, size in atoms]
    if not mesh.device_ids:
        return jaxlib_bridge.gspmd_iota_tile(tile_dims, reshape, perm, subgroups)
    import numpy as np

    devices = np.array(mesh.devices).reshape(reshape).transpose(perm).reshape(tile_dims)
    return jaxlib_bridge.gspmd_device_tile(devices, subgroups)


def export_gspmd_tuple(elements: Sequence[str]) -> str:
    from ..ir import jaxlib_bridge

    return jaxlib_bridge.gspmd_tuple(elements)
