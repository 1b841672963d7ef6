"""scatter on a sharded operand or updates (see the package docstring's cases): indices
into sharded inserted window dims are shifted to the shard (updates of other shards
are skipped as out of bounds); updates split along batch dims scatter on every device
and are combined with the body's reducer (reducers.scatter_reducer), the operand's
initial value counted once.
"""
from __future__ import annotations

import math

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..reducers import IDEMPOTENT_REDUCERS, identity_value, scatter_reducer
from ...ir.diagnostics import ShardpyError
from ...ir.utils import after, chain_readers
from ...sharding.model import TensorSharding
from .common import (Indices, conjoin, compare, dim_offset, global_size, i32,
                     replace_result, scalar_of, set_bool_attr, splat, spread, summable)


def scatter_combine(op: ir.Operation) -> str | None:
    reducer = scatter_reducer(op)
    if reducer is None:
        return None
    if reducer == "stablehlo.add":
        return "sum" if all(summable(r.type.element_type) for r in op.results) else None
    if any(isinstance(r.type.element_type, ir.ComplexType) for r in op.results):
        return None  # no max/min, and a complex identity we do not build
    return "self-combining"


def scatter_counted_once(op: ir.Operation) -> tuple[int, ...]:
    """The inputs of a summing scatter: made unreduced on its update-batch axes, so the
    initial value is counted once in the partial results."""
    return tuple(range(len(op.results)))


def _identity(value_type: ir.RankedTensorType, reducer: str) -> ir.Value:
    element = value_type.element_type
    value = identity_value(reducer, element)
    if isinstance(element, ir.IntegerType):
        width = ir.IntegerType(element).width
        attr = ir.IntegerAttr.get(element, int(bool(value)) if width == 1 else int(value))
    else:
        attr = ir.FloatAttr.get(element, float(value))
    return splat(value_type, attr)


def _first_along(lw, mesh, axes) -> ir.Value:
    """tensor<i1>: is this device the first one along `axes`?"""
    n = math.prod(a.size(mesh) for a in axes)
    return compare(lw.shard_scalar(mesh, axes, [1] + [0] * (n - 1)), scalar_of(1, i32()),
                   "EQ")



def _scatter_batch_axes(dn, updates_sharding: TensorSharding | None, update_rank: int):
    """Axes sharding the update batch dims that only indices and updates have (the
    REDUCTION factor of a reducing scatter)."""
    if updates_sharding is None:
        return []
    window = set(dn.update_window_dims)
    explicit = set(dn.scatter_indices_batching_dims)
    axes = []
    position = 0
    for u in range(update_rank):
        if u in window:
            continue
        indices_dim = position if position < dn.index_vector_dim else position + 1
        position += 1
        if indices_dim not in explicit:
            axes += list(updates_sharding.dims[u].axes)
    return axes


def lower_scatter(lw, op: ir.Operation) -> None:
    n = len(op.results)
    inputs = list(op.operands[:n])
    indices = op.operands[n]
    updates = list(op.operands[n + 1:])
    sharding = lw.shardings.get(inputs[0])
    updates_sharding = lw.shardings.get(updates[0])
    lw.shrink_results(op)
    dn = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    inserted = set(dn.inserted_window_dims)
    batching = set(dn.input_batching_dims)
    to_operand = list(dn.scattered_dims_to_operand_dims)
    local = list(inputs[0].type.shape)
    shifted = []  # (operand dim, global size, local size)
    if sharding is not None:
        for d, dim in enumerate(sharding.dims):
            if not dim.axes or d in batching:
                continue
            if d in inserted:
                shifted.append((d, global_size(lw, inputs[0], d, sharding), local[d]))
            # else a window dim the updates cover whole, sharded alike: start must be
            # 0 globally and locally alike (else the window is out of bounds: skipped)
    batch_axes = _scatter_batch_axes(dn, updates_sharding, updates[0].type.rank)
    reducer = scatter_reducer(op) if batch_axes else None
    if batch_axes and reducer is None:
        raise ShardpyError("internal: scatter updates are split along batch dims but its "
                           "body is not a reducer", op.location)
    skip_unless = None  # tensor<i1>: this device holds the window (dims without index)
    if shifted:
        with op.location, ir.InsertionPoint(op):
            idx = Indices(indices, dn.index_vector_dim)
            for d, full, size in shifted:
                offset = dim_offset(lw, sharding, d, size, idx.work)
                if d not in to_operand:
                    skip_unless = conjoin(skip_unless,
                                       compare(offset, scalar_of(0, idx.work), "EQ"))
                    continue
                c = to_operand.index(d)
                # In bounds globally iff in [0, full - 1]; [-1, full] keeps that and
                # cannot wrap around when shifted; in bounds locally iff in this shard
                # (or in its padding, uneven dims: written there, never read).
                clamped = stablehlo.ClampOp(scalar_of(-1, idx.work), idx.get(c),
                                            scalar_of(full, idx.work)).result
                idx.set(c, stablehlo.SubtractOp(
                    clamped, spread(offset, idx.component_shape)).result)
            op.operands[n] = idx.joined()
    if sharding is not None and any(dim.axes for dim in sharding.dims):
        # XLA (jaxlib 0.10.2, CPU) fuses a dynamic_slice that makes the operand
        # (an all_slice) into the scatter and applies out-of-bounds indices (shifted
        # out of the shard, or out of range) to the unsliced array; a barrier keeps the
        # operands apart. Block arguments too: a callee's argument is the caller's
        # dynamic_slice once XLA inlines the call
        # (test/Regressions/fuzz_scatter_out_of_shard_into_*.mlir,
        # fuzz_scatter_window_sharded_out_of_range.mlir).
        with op.location, ir.InsertionPoint(op):
            kept = stablehlo.OptimizationBarrierOp(inputs).results
        for i, value in enumerate(kept):
            inputs[i] = op.operands[i] = value
        set_bool_attr(op, "indices_are_sorted", False)
        set_bool_attr(op, "unique_indices", False)
    if batch_axes and reducer not in IDEMPOTENT_REDUCERS and reducer != "stablehlo.add":
        # multiply, not idempotent: the initial value on the first device along the
        # batch axes, the identity on the others. (add: the plan made the operand
        # unreduced on those axes already; max/min/and/or may count it many times.)
        mesh = updates_sharding.mesh
        with op.location, ir.InsertionPoint(op):
            first = _first_along(lw, mesh, batch_axes)
            for i, value in enumerate(inputs):
                keep = spread(first, value.type.shape)
                op.operands[i] = stablehlo.SelectOp(
                    keep, value, _identity(value.type, reducer)).result
    results = list(op.results)
    with op.location, after(op):
        finals = []
        for i, result in enumerate(results):
            value, first_user = result, None
            if skip_unless is not None:
                value = stablehlo.SelectOp(spread(skip_unless, value.type.shape), value,
                                           op.operands[i]).result
                first_user = value.owner.operation
            if batch_axes and reducer != "stablehlo.add":
                before = value
                value = lw.all_reduce(value, batch_axes, updates_sharding.mesh, reducer)
                first_user = first_user or chain_readers(value, before)
            finals.append((value, first_user))
    for result, (value, first_user) in zip(results, finals):
        if value is not result:
            replace_result(lw, result, value, first_user)
