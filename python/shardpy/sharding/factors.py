"""Tensor shardings in factor space: the projection both propagation and
insert-reshards work in.

1. project:   each operand/result sharding -> per-factor shardings (`TensorFactors`),
              splitting axes into sub-axes where a dim holds several factors;
2. (propagation.strategies decides per factor what every tensor can agree on;
   insert-reshards picks the factor shardings an op is computed with);
3. unproject: per-factor shardings -> dimension shardings again.

Tensors are operands then results, in rule order.
"""
from __future__ import annotations

import enum
from math import gcd
from typing import Sequence

from . import axis_algebra as aa
from .model import AxisRef, DimSharding, TensorSharding


class Direction(enum.IntFlag):
    NONE = 0
    FORWARD = 1   # operands -> results
    BACKWARD = 2  # results -> operands
    BOTH = 3


class FactorSharding:
    """One tensor's sharding along one factor."""

    __slots__ = ("axes", "closed", "minor_most", "overflow")

    def __init__(self, axes: tuple = (), closed: bool = False, minor_most: bool = False,
                 overflow: tuple = ()):
        self.axes = axes
        self.closed = closed
        self.minor_most = minor_most
        self.overflow = overflow


class TensorFactors:
    """A tensor's factor shardings plus the axes it must not be sharded on."""

    __slots__ = ("factors", "blocked_axes")

    def __init__(self, factors: dict[int, FactorSharding], blocked_axes: tuple):
        self.factors = factors
        self.blocked_axes = blocked_axes  # replicated + unreduced


# --------------------------------------------------------------------------- projection


def project(mapping, sharding: TensorSharding | None, factor_sizes: Sequence[int],
            sizes: aa.Sizes) -> TensorFactors:
    factors: dict[int, FactorSharding] = {}
    for dim, dim_factors in enumerate(mapping):
        if sharding is not None:
            dim_sharding = sharding.dims[dim]
            axes, closed = dim_sharding.axes, dim_sharding.closed
        else:
            axes, closed = (), False
        # The axis being consumed: index into `axes` and what is left of it (lo, size).
        index = 0
        left = _remaining(axes, 0, sizes)
        overflowed = False
        last = len(dim_factors) - 1
        for position, f in enumerate(dim_factors):
            fs = FactorSharding(minor_most=position == last)
            factors[f] = fs
            if overflowed:
                fs.closed = True  # nothing may shard a factor behind overflow axes
                break
            fs.closed = closed
            if fs.minor_most:
                fs.axes = tuple(_rest(axes, index, left, sizes))
                break
            remaining = factor_sizes[f]
            taken: list[AxisRef] = []
            while left is not None:
                lo, size = left
                common = gcd(remaining, size)
                if size != 1 and common == 1:
                    break
                name = axes[index].name
                if size > common:  # split the axis: the factor takes its major part
                    taken.append(aa.from_span(name, lo, lo * common, sizes))
                    left = (lo * common, size // common)
                    remaining //= common
                else:
                    taken.append(aa.from_span(name, lo, lo * size, sizes))
                    remaining //= size
                    index += 1
                    left = _remaining(axes, index, sizes)
            fs.axes = tuple(taken)
            if remaining > 1 and left is not None:
                fs.overflow = tuple(_rest(axes, index, left, sizes))
                overflowed = True
    blocked = ()
    if sharding is not None and (sharding.replicated or sharding.unreduced):
        blocked = sharding.replicated + sharding.unreduced
    return TensorFactors(factors, blocked)


def _remaining(axes, index: int, sizes) -> tuple[int, int] | None:
    if index >= len(axes):
        return None
    lo, hi = aa.span(axes[index], sizes)
    return lo, hi // lo


def _rest(axes, index: int, left, sizes) -> list[AxisRef]:
    out: list[AxisRef] = []
    while left is not None:
        lo, size = left
        aa.append_or_merge(out, aa.from_span(axes[index].name, lo, lo * size, sizes), sizes)
        index += 1
        left = _remaining(axes, index, sizes)
    return out


def unproject(tensor: TensorFactors, mapping, factor_sizes: Sequence[int],
              old: TensorSharding | None, template: TensorSharding,
              sizes: aa.Sizes) -> TensorSharding:
    """Dimension shardings from factor shardings; mesh, replicated and unreduced axes
    kept from `old`, else (no sharding yet, or one on the empty mesh) the mesh from
    `template` (the op's common mesh)."""
    dims = []
    for dim_factors in mapping:
        closed = False
        axes: list[AxisRef] = []
        for f in dim_factors:
            fs = tensor.factors.get(f)
            if fs is None:
                break
            closed |= fs.closed
            for i, ref in enumerate(fs.axes):
                if i == 0:
                    aa.append_or_merge(axes, ref, sizes)
                else:
                    axes.append(ref)
            if fs.overflow:
                for i, ref in enumerate(fs.overflow):
                    if i == 0:
                        aa.append_or_merge(axes, ref, sizes)
                    else:
                        axes.append(ref)
                break
            if aa.axes_size(fs.axes, sizes) < factor_sizes[f]:
                break  # later factors would need a strided view
        dims.append(DimSharding(tuple(axes), closed))
    if old is not None and not old.mesh.is_empty:
        return TensorSharding(old.mesh, tuple(dims), old.replicated, old.unreduced,
                              old.mesh_name)
    return TensorSharding(template.mesh, tuple(dims), (), (), template.mesh_name)
