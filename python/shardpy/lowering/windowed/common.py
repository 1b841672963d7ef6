"""What the windowed lowerings share: a tensor's placement (Placed), op attributes,
the Analysis of a plan (the halos each operand needs, the local attributes), its
price in bytes per device for insert-reshards (cost_from) and its halos applied in
shardpy-to-local (apply_halos).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

import numpy as np
from jaxlib.mlir import ir

from ..halo import Exchanger, Window
from ...ir.diagnostics import ShardpyError
from ...ir.types import element_bytes
from ...sharding.model import TensorSharding


# --------------------------------------------------------------------------- placement


@dataclass(frozen=True)
class Placed:
    """A tensor's global shape and sharding (None: replicated)."""
    shape: tuple[int, ...]
    sharding: TensorSharding | None

    def shards(self, dim: int) -> int:
        return self.sharding.dim_shards(dim) if self.sharding is not None else 1

    def axes(self, dim: int) -> tuple:
        return tuple(self.sharding.dims[dim].axes) if self.sharding is not None else ()

    @property
    def local(self) -> list[int]:
        return [per_shard(size, self.shards(d)) for d, size in enumerate(self.shape)]


def per_shard(size: int, shards: int) -> int:
    """Elements per shard (uneven dims: padded to whole shards, shardpy.lowering.padding; the
    planner shards windowed factors evenly only, so a halo's dim always divides)."""
    return -(-size // shards)


def shape_of(value_type) -> tuple[int, ...]:
    return tuple(ir.RankedTensorType(value_type).shape) if isinstance(
        value_type, ir.RankedTensorType) else ()


def _planned(op, operand_shardings, result_shardings) -> tuple[list[Placed], list[Placed]]:
    """Insert-reshards' view: types are global."""
    return ([Placed(shape_of(v.type), s) for v, s in zip(op.operands, operand_shardings)],
            [Placed(shape_of(r.type), s) for r, s in zip(op.results, result_shardings)])


def lowered(lw, op) -> tuple[list[Placed], list[Placed]]:
    """shardpy-to-local's view: operands are local already, results still global."""
    operands = [Placed(tuple(global_shape_of(lw, v, shape_of(v.type))), lw.shardings.get(v))
                for v in op.operands]
    return operands, [Placed(shape_of(r.type), lw.shardings.get(r)) for r in op.results]


def global_shape_of(lw, value, shape) -> list[int]:
    """The global shape of an already lowered (local) value (uneven dims: not local x
    shards, so the lowering's record first)."""
    known = lw.global_shape(value)
    if known is not None:
        return list(known)
    sharding = lw.shardings.get(value)
    return [n * (sharding.dim_shards(d) if sharding is not None else 1)
            for d, n in enumerate(shape)]


def element_bytes_of(value) -> int:
    return element_bytes(ir.RankedTensorType(value.type).element_type)


# --------------------------------------------------------------------------- attributes


def ints(op, name: str, default: list[int]) -> list[int]:
    attrs = op.attributes
    return list(ir.DenseI64ArrayAttr(attrs[name])) if name in attrs else list(default)


def padding_of(op, rank: int) -> list[tuple[int, int]]:
    attrs = op.attributes
    if "padding" not in attrs:
        return [(0, 0)] * rank
    flat = [int(x) for x in ir.DenseIntElementsAttr(attrs["padding"])]
    return [(flat[2 * d], flat[2 * d + 1]) for d in range(rank)]


def padding_attr(padding: list[tuple[int, int]]) -> ir.Attribute:
    return ir.DenseIntElementsAttr.get(np.array(padding, dtype=np.int64).reshape(-1, 2))


def bools(op, name: str, rank: int) -> list[bool]:
    attrs = op.attributes
    return list(ir.DenseBoolArrayAttr(attrs[name])) if name in attrs else [False] * rank


# --------------------------------------------------------------------------- plans


@dataclass
class Halo:
    """Exchange operand `operand` along `dim` to `window`."""
    operand: int
    dim: int
    window: Window


@dataclass
class Analysis:
    halos: list[Halo] = field(default_factory=list)
    attrs: dict = field(default_factory=dict)     # op-specific local attributes
    # Collectives besides the halos: (kind, group size, bytes per device), e.g. a
    # scan's all_gather of the shards' totals.
    extra: list[tuple[str, int, float]] = field(default_factory=list)

    def add(self, halo: Halo) -> None:
        if not halo.window.is_identity:  # shards that need just their own block
            self.halos.append(halo)


def exchange_collectives(analysis: Analysis, operands: list[Placed], element_bytes
                         ) -> tuple[tuple[str, int, float], ...]:
    """The collectives the lowering makes, (kind, group size, bytes per device) each:
    the halos' collective_permutes as one (applied in order: a later dim's pieces are
    cut from the already extended operand), then the analysis' other collectives."""
    shapes = [list(p.local) for p in operands]
    halos = 0.0
    for halo in analysis.halos:
        shape = shapes[halo.operand]
        others = prod(s for d, s in enumerate(shape) if d != halo.dim)
        halos += halo.window.received() * others * element_bytes[halo.operand]
        shape[halo.dim] = halo.window.size
    found = [("collective_permute", 2, halos)] if halos > 0 else []
    return tuple(found + [c for c in analysis.extra if c[2] > 0])


def same_axes(a: Placed, da: int, b: Placed, db: int) -> bool:
    return a.axes(da) == b.axes(db)


def cost_from(analyse):
    """<op>_cost(op, operand_shardings, result_shardings) from an analysis: the
    collectives the lowering makes (exchange_collectives), None where it cannot."""
    def cost(op, operand_shardings, result_shardings) -> tuple | None:
        operands, results = _planned(op, operand_shardings, result_shardings)
        analysis = analyse(op, operands, results)
        if analysis is None:
            return None
        # Uneven dims (padded shards) only where nothing moves between shards: a halo
        # exchanges whole blocks of a dim its shards divide.
        if any(operands[h.operand].shape[h.dim] % operands[h.operand].shards(h.dim)
               for h in analysis.halos):
            return None
        return exchange_collectives(analysis, operands, [
            element_bytes_of(v) if isinstance(v.type, ir.RankedTensorType) else 0
            for v in op.operands])
    return cost


# --------------------------------------------------------------------------- lowering


def apply_halos(lw, op, analysis: Analysis, operands: list[Placed], fills=None
                ) -> list[ir.Value]:
    """The op's operands after the analysis' exchanges (at the current insertion
    point); `fills[i]`: the padding value of operand i (None: zeros)."""
    ex = Exchanger(lw)
    values = list(op.operands)
    for halo in analysis.halos:
        placed = operands[halo.operand]
        fill = fills[halo.operand] if fills is not None and halo.operand < len(fills) \
            else None
        values[halo.operand] = ex.exchange(values[halo.operand], placed.sharding.mesh,
                                           placed.axes(halo.dim), halo.dim, halo.window,
                                           fill)
    return values


def cannot_lower(op):
    return ShardpyError(f"internal: '{op.name}' cannot be computed on the shards "
                        f"insert-reshards chose", op.location)
