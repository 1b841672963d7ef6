"""Shardings as shardpy-insert-reshards builds them, and two facts about values it reads.

`plain` closes a sharding the way sdy's collectives and reshards want it (no
priorities, no open dims, consecutive sub-axes merged); `replicated` and `mesh_order`
build the shardings a plan needs. Comparing layouts is in plan_cache (it is memoized).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..ops.registry import SOURCE_OPS
from ..sharding import axis_algebra as aa
from ..sharding.model import AxisRef, DimSharding, TensorSharding


def plain(sharding: TensorSharding, dims=None, unreduced=()) -> TensorSharding:
    """A closed sharding (no priorities, no replicated axes) on the same mesh, with
    consecutive sub-axes of a dim merged (two factors of one dim, or axes moved onto a
    factor, can leave "x":(1)2, "x":(2)2 side by side: that is "x", as sdy wants it)."""
    if (dims is None or dims is sharding.dims) and not sharding.replicated and \
            tuple(unreduced) == sharding.unreduced and _closed_and_merged(sharding):
        return sharding  # already plain: the same object (and its memoized keys)
    dims = sharding.dims if dims is None else dims
    return TensorSharding(sharding.mesh,
                          tuple(DimSharding(_merged_axes(d.axes, sharding.mesh.axes), True)
                                for d in dims),
                          (), tuple(unreduced), sharding.mesh_name)


def _closed_and_merged(sharding: TensorSharding) -> bool:
    for d in sharding.dims:
        if not d.closed or d.priority is not None:
            return False
        axes = d.axes
        if len(axes) > 1 and any(ref.sub is not None for ref in axes):
            return False
    return True


def _merged_axes(axes, sizes) -> tuple[AxisRef, ...]:
    if len(axes) < 2 or all(ref.sub is None for ref in axes):
        return tuple(axes)
    return tuple(aa.merge_consecutive(axes, sizes))


def replicated(template: TensorSharding, rank: int) -> TensorSharding:
    return TensorSharding.replicated_on(template.mesh, rank, template.mesh_name)


def mesh_order(axes, template: TensorSharding) -> list[AxisRef]:
    """Axes sorted as sdy wants them (mesh order), consecutive sub-axes merged."""
    order = {n: i for i, n in enumerate(template.mesh.axis_names)}
    return aa.merge_consecutive(
        sorted(axes, key=lambda a: (order.get(a.name, 0), a.sub or (0, 0))), template.mesh.axes)


def has_uses(value: ir.Value) -> bool:
    return next(iter(value.uses), None) is not None


def from_source(value: ir.Value) -> bool:
    """Is `value` made by an iota or constant (remade in any layout for free)?"""
    return isinstance(value, ir.OpResult) and value.owner.operation.name in SOURCE_OPS
