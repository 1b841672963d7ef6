"""Several meshes at one shardpy.jit boundary: one shard_map mesh that refines them all.

jax.jit lets one program use several meshes over the same devices in the same order
(its device assignment): arguments on a (2, 4) mesh, another on an (8,) one,
out_shardings on a (4, 2) one. The per-device program numbers devices by that order,
whatever mesh a value is on; the executor's shard_map takes one mesh. Over one device
order, mesh axis i of sizes (s0, ..., sn) (major first) is the digits of a device's
position between the strides prod(s[i+1:]) and prod(s[i:]). Where the strides of all the
boundary's meshes form one chain (each divides the next), the chain's steps are the
axes of a mesh that refines every one of them, and each mesh axis is a run of its axes:

    (2, 4) ("a", "b"): strides 1, 4, 8      (4, 2) ("c", "d"): strides 1, 2, 8
    refined: strides 1, 2, 4, 8 -> (2, 2, 2) ("shardpy_0", "shardpy_1", "shardpy_2")
    "a" = (shardpy_0,)   "b" = (shardpy_1, shardpy_2)
    "c" = (shardpy_0, shardpy_1)   "d" = (shardpy_2,)

so P("c", "d") crosses the shard_map as P(("shardpy_0", "shardpy_1"), "shardpy_2"), the
same blocks on the same devices, and the executor's results are named on their own mesh
(as jax.jit names them). Where a mesh has Explicit axes (jax.make_mesh's default), the
refined mesh has Explicit axes too: values typed on their meshes move onto it, and the
results back onto theirs, by jax.reshard. Meshes whose strides do not chain ((3, 4)
with (4, 3)) are refused with one clear error.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod

PREFIX = "shardpy_"


@dataclass
class Refined:
    """The shard_map mesh and, per boundary mesh symbol, its axes as refined axes."""
    mesh: object  # jax.sharding.Mesh
    axes: dict  # symbol -> {axis name: tuple of refined axis names}

    def spec(self, symbol, spec):
        """PartitionSpec `spec` on mesh `symbol`, on the refined mesh."""
        from jax.sharding import PartitionSpec

        # (A value on no mesh of several devices names axes of size 1, if any: none.)
        names = self.axes.get(symbol, {})
        entries = []
        for entry in tuple(spec):
            parts = () if entry is None else entry if isinstance(entry, tuple) else (entry,)
            refined = tuple(r for name in parts for r in names.get(name, ()))
            entries.append(None if not refined else refined[0] if len(refined) == 1
                           else refined)
        return PartitionSpec(*entries)


def for_executor(primary, found: list, boundary, in_specs, out_specs):
    """(the shard_map's mesh, its in_specs, its out_specs, per result (the jax Mesh
    its sharding is named on, its spec there, the mesh jax.reshard moves it onto), or
    None where the boundary has one mesh and all stays as it was). `boundary`:
    partition_module's (argument symbols, result symbols, {symbol: model.Mesh});
    `found`: the jax Meshes of the call (arguments, in/out shardings), `primary` the
    first."""
    import jax

    arg_symbols, result_symbols, defs = boundary
    used = boundary_meshes(arg_symbols + result_symbols, defs)
    explicit = any(t == jax.sharding.AxisType.Explicit for m in found for t in m.axis_types)
    refined = refine(primary, used, explicit)
    if refined is None:
        # One mesh: the shard_map runs on it (the first mesh found may be another one,
        # e.g. an argument's that the program does not read).
        one = next(iter(used.values()), None)
        if one is not None and tuple(one.axes) != tuple(primary.shape_tuple):
            return named_mesh(one, found, primary), in_specs, out_specs, None
        return primary, in_specs, out_specs, None
    names = {symbol: named_mesh(mesh, found, primary) for symbol, mesh in used.items()}
    return (refined.mesh,
            tuple(refined.spec(s, spec) for s, spec in zip(arg_symbols, in_specs)),
            tuple(refined.spec(s, spec) for s, spec in zip(result_symbols, out_specs)),
            tuple((m, spec, all_explicit(m) if explicit else m)
                  for m, spec in zip((names.get(s, primary) for s in result_symbols),
                                     out_specs)))


def all_explicit(mesh):
    """`mesh` with every axis Explicit: what jax.reshard moves a result onto from a
    refined mesh of Explicit axes (it names Explicit axes only); jax.jit's out_shardings
    then give a result on a mesh of Auto axes that mesh back."""
    import jax

    kind = jax.sharding.AxisType.Explicit
    if all(t == kind for t in mesh.axis_types):
        return mesh
    return jax.sharding.Mesh(mesh.devices, mesh.axis_names,
                             axis_types=(kind,) * len(mesh.axis_names))


def boundary_meshes(symbols, defs: dict) -> dict:
    """{symbol: model.Mesh} of the boundary's values on meshes of several devices (one
    symbol per distinct mesh: sdy's names differ for meshes jax keeps apart)."""
    used = {}
    for symbol in symbols:
        mesh = defs.get(symbol) if symbol is not None else None
        if mesh is not None and not mesh.is_empty and not mesh.is_maximal and mesh.size > 1:
            used[symbol] = mesh
    return used


def refine(primary, used: dict, explicit: bool = False) -> Refined | None:
    """The refined mesh over `primary`'s devices (a jax Mesh: the device order) of the
    boundary meshes `used` ({symbol: model.Mesh}), of Explicit axes where `explicit`
    (values typed on the meshes move onto it by jax.reshard); None where they are all
    one mesh (the shard_map runs on it as it is)."""
    import jax
    import numpy as np

    if len({mesh.axes for mesh in used.values()}) <= 1:
        return None
    n = primary.devices.size
    strides = {1}
    for symbol, mesh in used.items():
        if mesh.size != n or mesh.device_ids:
            raise ValueError(f"shardpy.jit: mesh @{symbol} {_shape(mesh)} is not over the "
                             f"program's {n} devices in their order; shardpy.jit maps "
                             f"several meshes only where they are")
        strides.update(_strides(mesh))
    chain = sorted(strides)
    if any(b % a for a, b in zip(chain, chain[1:])):
        shapes = ", ".join(_shape(m) for m in used.values())
        raise ValueError(f"shardpy.jit: the program's meshes {shapes} split the devices "
                         f"in ways no one mesh refines (their strides {chain} do not "
                         f"divide each other); shardpy.jit needs meshes that nest")
    # Refined axes major first: the chain's steps from the top down.
    steps = list(zip(chain, chain[1:]))[::-1]
    names = [f"{PREFIX}{i}" for i in range(len(steps))]
    sizes = [b // a for a, b in steps]
    devices = np.array(list(primary.devices.flat)).reshape(sizes)
    axes = {}
    for symbol, mesh in used.items():
        per_axis = {}
        for (name, _), (lo, hi) in zip(mesh.axes, _spans(mesh)):
            per_axis[name] = tuple(r for r, (a, b) in zip(names, steps) if lo <= a and b <= hi)
        axes[symbol] = per_axis
    kind = jax.sharding.AxisType.Explicit if explicit else jax.sharding.AxisType.Auto
    return Refined(jax.sharding.Mesh(devices, tuple(names), axis_types=(kind,) * len(names)),
                   axes)


def named_mesh(mesh, found: list, primary):
    """The jax Mesh a result on `mesh` (a model.Mesh) is named on: a mesh of the
    program's with its axes and devices, else one made over `primary`'s devices."""
    import jax
    import numpy as np

    shape = tuple(mesh.axes)
    flat = list(primary.devices.flat)
    for candidate in found:
        if tuple(candidate.shape_tuple) == shape and list(candidate.devices.flat) == flat:
            return candidate
    sizes = [size for _, size in mesh.axes]
    return jax.sharding.Mesh(np.array(flat).reshape(sizes), tuple(n for n, _ in mesh.axes))


def _strides(mesh) -> list[int]:
    return [s for span in _spans(mesh) for s in span]


def _spans(mesh) -> list[tuple[int, int]]:
    """Per axis (major first), the strides it lies between."""
    spans = []
    for i, (_, size) in enumerate(mesh.axes):
        lo = prod(s for _, s in mesh.axes[i + 1:])
        spans.append((lo, lo * size))
    return spans


def _shape(mesh) -> str:
    return "(" + ", ".join(f"{n}={s}" for n, s in mesh.axes) + ")"
