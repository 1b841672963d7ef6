"""The `manual` feature: per-device code (sdy.manual_computation, shard_map's form).

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature) takes, at the end of @main, one or two
float values of the pool into a manual computation over a drawn non-empty set of
@mesh's axes (all of them, or some: then the others stay free and the body is still
partitioned along them). Each operand's in_sharding puts each manual axis on a dim it
divides or leaves the operand replicated along it, now and then with a free axis
after the manual ones (in 1 program of 3 also where it splits the manual part
unevenly: the global and the manual layout then differ). The body holds 1-5 ops on
the local values:

  * elementwise ops (tanh, negate, add, multiply, subtract);
  * stablehlo.all_reduce (psum) and all_gather over a subset of the manual axes;
  * stablehlo.collective_permute along one manual axis (a ring shift, ppermute);
  * stablehlo.all_to_all along one manual axis.

Replica groups name partition ids (the mesh's device_ids where it has them): one
group per combination of the other axes' coordinates, free axes included, so a group
never crosses a manual subgroup. On a mesh with device_ids every axis is manual (XLA,
the reference, cannot run partially manual code there: see `add`).

The generator tracks along which manual axes each local value varies (as shard_map's
replication check does) and puts every such axis on a dim of the out_sharding: a
result declared replicated along an axis is then equal on those devices, and the
replica check of the run stays meaningful. Such programs have no one-device meaning:
run_fuzz's reference for them is XLA's partitioner (as shardpy-run's).

1 such program in 3 also goes through GSPMD (run_fuzz: shardpy-export-gspmd, then
shardpy-import), so the partitioner meets the manual region as PyTorch/XLA writes it:
@Sharding + @SPMDFullToShardShape per operand, @SPMDShardToFullShape per result; and
1 in 12 of the other programs, for their device orders, meshes and placements as
GSPMD device lists (`through_gspmd`).

1 manual program in 4 is `bare`: manual over every axis, its operands replicated, and
@main's arguments and results unannotated (generate.py), so that in GSPMD form the
module may say nothing but `{replicated}` and `{manual}`: no tiled sharding tells the
import how many devices there are (fuzz seed 2207525 of the 10k run of 2026-11-27: the
import made an empty mesh and the region's all_reduce summed one value).
"""
from __future__ import annotations

import itertools
import math
import random

from fuzz_text import MAX_ELEMS, Value, int_list, ttype

PROBABILITY = 1 / 8
CHANNEL_BASE = 1000  # channel handles of the body's collectives (unique in the module)


def draws(seed: int) -> bool:
    return random.Random(f"manual {seed}").random() < PROBABILITY


def bare(seed: int) -> bool:
    """Is this program's manual region over every axis with replicated operands, in an
    @main without argument and result shardings? (1 in 4 of the manual programs.)"""
    return draws(seed) and random.Random(f"manual bare {seed}").random() < 1 / 4


def through_gspmd(seed: int) -> bool:
    """Does run_fuzz send this program through GSPMD (export, then import)? 1 in 3 of
    the programs with manual code, 1 in 12 of the others (their permuted device
    orders, second meshes and maximal placements as GSPMD device lists)."""
    share = 1 / 3 if draws(seed) else 1 / 12
    return random.Random(f"manual gspmd {seed}").random() < share


class _Mesh:
    """@mesh's axes and the partition id at each mesh position."""

    def __init__(self, gen):
        self.axes = list(gen.mesh)
        size = math.prod(s for _, s in self.axes)
        self.ids = list(gen.device_ids) if gen.device_ids else list(range(size))

    def size(self, name: str) -> int:
        return dict(self.axes)[name]

    def positions(self):
        """(coordinates by axis name, partition id) of every device."""
        ranges = [range(s) for _, s in self.axes]
        for pos, coords in enumerate(itertools.product(*ranges)):
            yield dict(zip((n for n, _ in self.axes), coords)), self.ids[pos]

    def groups(self, along: list[str]) -> list[list[int]]:
        """Replica groups over the axes `along` (in that order, major first): devices
        that agree on every other axis, ordered by their coordinates along `along`."""
        by_rest: dict[tuple, list[tuple[tuple, int]]] = {}
        for coords, device in self.positions():
            rest = tuple(coords[n] for n, _ in self.axes if n not in along)
            by_rest.setdefault(rest, []).append((tuple(coords[a] for a in along), device))
        return [[d for _, d in sorted(members)] for members in by_rest.values()]

    def ring(self, axis: str, shift: int) -> list[tuple[int, int]]:
        """collective_permute pairs: each device sends to the one `shift` further along
        `axis` (cyclically)."""
        size = self.size(axis)
        where = {tuple(sorted(c.items())): d for c, d in self.positions()}
        pairs = []
        for coords, device in self.positions():
            target = dict(coords)
            target[axis] = (coords[axis] + shift) % size
            pairs.append((device, where[tuple(sorted(target.items()))]))
        return pairs


def _dense_pairs(rows: list[list[int]] | list[tuple[int, int]]) -> str:
    width = len(rows[0])
    body = "[" + ", ".join(int_list(r) for r in rows) + "]"
    return f"dense<{body}> : tensor<{len(rows)}x{width}xi64>"


class _Local:
    """A value of the body: its SSA name, local shape and the manual axes it varies
    along."""

    def __init__(self, ref: str, shape: tuple[int, ...], varying: set[str], mag: float,
                 exact: bool):
        self.ref, self.shape, self.varying, self.mag, self.exact = (
            ref, tuple(shape), set(varying), mag, exact)

    @property
    def type(self) -> str:
        return ttype(self.shape, "f32")


def add(fb, seed: int) -> bool:
    """Append the manual computation to `fb` (the @main FuncBuilder) when `seed` draws
    it; whether it did."""
    if not draws(seed):
        return False
    rng = random.Random(f"manual body {seed}")
    gen = fb.gen
    mesh = _Mesh(gen)
    axes = [n for n, s in mesh.axes if s > 1]
    # (A dynamic_slice's result sliced into the manual code is the known XLA fold of
    # indexed_dynamic_slices in the reference: left out with that feature.)
    floats = [v for v in fb.pool if v.dtype == "f32" and v.shape and all(v.shape)
              and v.elems <= MAX_ELEMS // 2
              and (gen.features.indexed_dynamic_slices or not v.sliced)]
    if not axes or not floats:
        return False
    # 1 program in 3: free axes may split a manual part unevenly (own RNG: the other
    # draws stay as they were where a free axis divides anyway); such programs keep an
    # axis free where they can.
    replicated = bare(seed)
    uneven = not replicated and random.Random(f"manual uneven {seed}").random() < 1 / 3
    most = len(axes) - 1 if uneven and len(axes) > 1 else len(axes)
    manual = sorted(rng.sample(axes, rng.randint(1, most)),
                    key=[n for n, _ in mesh.axes].index)
    if gen.device_ids or replicated:
        # Partially manual code on a mesh whose devices are not in iota order has no
        # reference: XLA prints a manual subgroup's replicated devices sorted by id,
        # which reassigns devices to free-axis coordinates, and then rejects groups
        # that follow the mesh ("Manual all-reduce across devices that belong to
        # different manual subgroups") or fails aligning shardings ("Incompatible manual
        # sharding", spmd_partitioner.cc). Fully manual code only, there.
        manual = axes
    free = [n for n in axes if n not in manual]
    operands = rng.sample(floats, min(len(floats), rng.choice([1, 1, 2])))
    body = _Body(fb, rng, mesh, manual)
    in_shardings, locals_ = [], []
    for v in operands:
        sharding, local, varying = _in_sharding(rng, mesh, manual, free, v.shape, uneven,
                                                0.0 if replicated else 0.75)
        in_shardings.append(sharding)
        locals_.append(_Local(fb.fresh(), local, varying, v.mag, v.exact))
    body.values = list(locals_)
    for _ in range(rng.randint(1, 5)):
        body.random_op()
    outs = body.results(rng.choice([1, 1, 2]))
    out_shardings, out_types, globals_ = [], [], []
    for x in outs:
        sharding, shape = _out_sharding(rng, mesh, manual, free, x, uneven)
        out_shardings.append(sharding)
        out_types.append(ttype(shape, "f32"))
        globals_.append(shape)
    refs, names = fb.result_names(len(outs))
    args = ", ".join(f"{x.ref}: {x.type}" for x in locals_)
    fb.emit(f"{refs} = sdy.manual_computation({', '.join(v.ref for v in operands)}) "
            f"in_shardings=[{', '.join(in_shardings)}] "
            f"out_shardings=[{', '.join(out_shardings)}] "
            f"manual_axes={{{', '.join(repr_axis(a) for a in manual)}}} ({args}) {{")
    for line in body.lines:
        fb.emit("  " + line)
    fb.emit(f"  sdy.return {', '.join(x.ref for x in outs)} : "
            f"{', '.join(x.type for x in outs)}")
    fb.emit(f"}} : ({', '.join(v.type for v in operands)}) -> "
            f"({', '.join(out_types)})" if len(outs) > 1 else
            f"}} : ({', '.join(v.type for v in operands)}) -> {out_types[0]}")
    fb.use(*operands)
    fb.ops += len(body.lines) + 1
    for name, shape, x in zip(names, globals_, outs):
        fb.pool.append(Value(name, tuple(shape), "f32", x.mag, x.exact).marked_as(*operands))
    return True


def repr_axis(name: str) -> str:
    return f'"{name}"'


def _sharding_text(dims: list[list[str]]) -> str:
    return "<@mesh, [" + ", ".join(
        "{" + ", ".join(repr_axis(a) for a in d) + "}" for d in dims) + "]>"


def _in_sharding(rng, mesh: _Mesh, manual, free, shape, uneven: bool,
                 chance: float = 0.75):
    """(in_sharding text, local shape, manual axes the operand varies along): each
    manual axis on a dim it divides (major to minor in drawn order) with probability
    `chance`, or nowhere (the operand replicated along it), then now and then a free
    axis after them (`uneven`: also on a dim whose manual part it does not divide)."""
    dims: list[list[str]] = [[] for _ in shape]
    local = list(shape)
    varying = set(_place(rng, mesh, rng.sample(manual, len(manual)), dims, local, chance))
    _place(rng, mesh, free, dims, list(local), 0.25, uneven)
    return _sharding_text(dims), tuple(local), varying


def _place(rng, mesh: _Mesh, axes, dims, parts, chance: float, uneven: bool = False
           ) -> list[str]:
    """Each of `axes` with probability `chance` on a dim whose part (`parts`: the dims
    divided by the axes placed so far, updated) it divides, or (`uneven`, free axes
    only) on any dim: a manual part split unevenly by free axes is laid out one way by
    the global sharding and another by the manual code (regions.even_manual_layouts;
    fuzz seed 7075 of the 10k run of 2026-11-27). The axes placed."""
    placed = []
    for axis in axes:
        k = mesh.size(axis)
        fits = [d for d, n in enumerate(parts) if n % k == 0]
        if uneven:  # where the axis leaves padding, after a manual axis if it can
            padded = [d for d, n in enumerate(parts) if n % k]
            fits = [d for d in padded if dims[d]] or padded or fits
            chance = 0.6
        if fits and rng.random() < chance:
            d = rng.choice(fits)
            dims[d].append(axis)
            parts[d] = -(-parts[d] // k)
            placed.append(axis)
    return placed


def _out_sharding(rng, mesh: _Mesh, manual, free, x: _Local, uneven: bool):
    """(out_sharding text, global shape) for the body's result `x`: every manual axis
    it varies along on a dim (the others now and then), then now and then a free axis
    that divides the local dim (`uneven`: or not)."""
    dims: list[list[str]] = [[] for _ in x.shape]
    shape = list(x.shape)
    for axis in rng.sample(manual, len(manual)):
        if axis in x.varying or rng.random() < 0.3:
            d = rng.randrange(len(shape))
            dims[d].append(axis)
            shape[d] *= mesh.size(axis)
    _place(rng, mesh, free, dims, list(x.shape), 0.25, uneven)
    return _sharding_text(dims), tuple(shape)


class _Body:
    """The manual computation's body: its lines and local values."""

    def __init__(self, fb, rng, mesh: _Mesh, manual: list[str]):
        self.fb, self.rng, self.mesh, self.manual = fb, rng, mesh, manual
        self.lines: list[str] = []
        self.values: list[_Local] = []
        self.uses: dict[str, int] = {}

    def channel(self) -> str:
        self.fb.gen.manual_channels = getattr(self.fb.gen, "manual_channels", 0) + 1
        handle = CHANNEL_BASE + self.fb.gen.manual_channels
        return f"channel_handle = #stablehlo.channel_handle<handle = {handle}, type = 1>"

    def pick(self, pred=lambda x: True) -> _Local | None:
        options = [x for x in self.values if pred(x)]
        if not options:
            return None
        return self.rng.choice(options[-3:])

    def new(self, shape, varying, mag, exact, used: list[_Local]) -> _Local:
        for x in used:
            self.uses[x.ref] = self.uses.get(x.ref, 0) + 1
        x = _Local(self.fb.fresh(), shape, varying, mag, exact)
        self.values.append(x)
        return x

    def axes_subset(self) -> list[str]:
        return self.rng.sample(self.manual, self.rng.randint(1, len(self.manual)))

    def random_op(self) -> None:
        kind = self.rng.choice(["unary", "binary", "all_reduce", "all_reduce",
                                "all_gather", "permute", "all_to_all"])
        getattr(self, f"op_{kind}")()

    def tamed(self, x: _Local) -> _Local:
        """`x`, through tanh first if its bound is large."""
        if x.mag <= 1.0e3:
            return x
        return self.unary(x, "tanh")

    def unary(self, x: _Local, op: str) -> _Local:
        y = self.new(x.shape, x.varying, 1.0 if op == "tanh" else x.mag,
                     x.exact and op != "tanh", [x])
        self.lines.append(f"{y.ref} = stablehlo.{op} {x.ref} : {x.type}")
        return y

    def op_unary(self) -> None:
        self.unary(self.pick(), self.rng.choice(["tanh", "negate", "tanh"]))

    def op_binary(self) -> None:
        x = self.tamed(self.pick())
        partners = [v for v in self.values if v.shape == x.shape]
        y = self.tamed(self.rng.choice(partners))
        op = self.rng.choice(["add", "multiply", "subtract"])
        mag = x.mag * y.mag if op == "multiply" else x.mag + y.mag
        z = self.new(x.shape, x.varying | y.varying, mag, x.exact and y.exact, [x, y])
        self.lines.append(f"{z.ref} = stablehlo.{op} {x.ref}, {y.ref} : {x.type}")

    def op_all_reduce(self) -> None:
        x = self.tamed(self.pick())
        along = self.axes_subset()
        k = math.prod(self.mesh.size(a) for a in along)
        y = self.new(x.shape, x.varying - set(along), x.mag * k, False, [x])
        a, b, s = self.fb.fresh(), self.fb.fresh(), self.fb.fresh()
        scalar = ttype((), "f32")
        self.lines += [
            f'{y.ref} = "stablehlo.all_reduce"({x.ref}) <{{{self.channel()}, '
            f'replica_groups = {_dense_pairs(self.mesh.groups(along))}, '
            f'use_global_device_ids}}> ({{',
            f"^bb0({a}: {scalar}, {b}: {scalar}):",
            f"  {s} = stablehlo.add {a}, {b} : {scalar}",
            f"  stablehlo.return {s} : {scalar}",
            f"}}) : ({x.type}) -> {x.type}"]

    def op_all_gather(self) -> None:
        x = self.pick()
        along = self.axes_subset()
        k = math.prod(self.mesh.size(a) for a in along)
        if math.prod(x.shape) * k > MAX_ELEMS // 2:
            return self.op_unary()
        d = self.rng.randrange(len(x.shape))
        shape = list(x.shape)
        shape[d] *= k
        y = self.new(shape, x.varying - set(along), x.mag, x.exact, [x])
        self.lines.append(
            f'{y.ref} = "stablehlo.all_gather"({x.ref}) <{{all_gather_dim = {d} : i64, '
            f'{self.channel()}, replica_groups = {_dense_pairs(self.mesh.groups(along))}, '
            f'use_global_device_ids}}> : ({x.type}) -> {y.type}')

    def op_permute(self) -> None:
        x = self.pick()
        axis = self.rng.choice(self.manual)
        shift = self.rng.randrange(1, self.mesh.size(axis))
        y = self.new(x.shape, x.varying, x.mag, x.exact, [x])
        self.lines.append(
            f'{y.ref} = "stablehlo.collective_permute"({x.ref}) <{{{self.channel()}, '
            f'source_target_pairs = {_dense_pairs(self.mesh.ring(axis, shift))}}}> : '
            f'({x.type}) -> {y.type}')

    def op_all_to_all(self) -> None:
        axis = self.rng.choice(self.manual)
        k = self.mesh.size(axis)
        x = self.pick(lambda v: any(n % k == 0 for n in v.shape))
        if x is None:
            return self.op_unary()
        split = self.rng.choice([d for d, n in enumerate(x.shape) if n % k == 0])
        concat = self.rng.randrange(len(x.shape))
        shape = list(x.shape)
        shape[split] //= k
        shape[concat] *= k
        y = self.new(shape, x.varying | {axis}, x.mag, x.exact, [x])
        self.lines.append(
            f'{y.ref} = "stablehlo.all_to_all"({x.ref}) <{{{self.channel()}, '
            f'concat_dimension = {concat} : i64, '
            f'replica_groups = {_dense_pairs(self.mesh.groups([axis]))}, '
            f'split_count = {k} : i64, split_dimension = {split} : i64}}> : '
            f'({x.type}) -> {y.type}')

    def results(self, count: int) -> list[_Local]:
        """The body's results: values no op of the body read, the latest first, else
        the latest values."""
        unused = [x for x in self.values if not self.uses.get(x.ref)]
        picked = (unused[::-1] + [x for x in self.values[::-1] if x not in unused])
        return picked[:count]
