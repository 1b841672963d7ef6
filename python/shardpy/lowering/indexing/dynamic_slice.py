"""dynamic_slice and dynamic_update_slice on a sharded operand (see the package
docstring's cases): starts clamped explicitly into range; a sliced sharded dim is
sliced out of each shard padded with zeros (a partial sum: dynamic_slice_rule,
dynamic_slice_combine); an update covering part of a sharded dim is written where the
window meets each shard.
"""
from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...ir.diagnostics import ShardpyError
from ...ir.utils import zeros
from ...sharding.op_rule import FactorKind, OpRule
from .common import (conjoin, compare, dim_offset, global_size, scalar_of, spread,
                     summable, tensor_type, to_work, work_type)


def dynamic_slice_combine(op: ir.Operation) -> str | None:
    return "sum" if summable(op.results[0].type.element_type) else None


def dynamic_slice_rule(op: ir.Operation, rule: OpRule) -> OpRule:
    """The rule insert-reshards places a dynamic_slice with: a sliced dim is a
    REDUCTION factor of the operand alone (kept sharded: each device slices its part of
    the window, the partial windows are summed) and a whole factor of the result, in
    place of the NEED_REPLICATION factor the two share in the propagation rule."""
    if len(rule.operands) < 1 or len(rule.results) != 1:
        return rule
    src = op.operands[0].type.shape
    dst = op.results[0].type.shape
    sizes, kinds = list(rule.factor_sizes), list(rule.kinds)
    result_dims = [list(dim) for dim in rule.results[0]]
    for d in range(len(src)):
        if src[d] == dst[d] or len(rule.operands[0][d]) != 1:
            continue
        f = rule.operands[0][d][0]
        if kinds[f] is not FactorKind.NEED_REPLICATION or result_dims[d] != [f]:
            continue
        kinds[f] = FactorKind.REDUCTION
        result_dims[d] = [len(sizes)]
        sizes.append(dst[d])
        kinds.append(FactorKind.NEED_REPLICATION)
    results = (tuple(tuple(dim) for dim in result_dims),)
    return OpRule(tuple(sizes), rule.operands, results, tuple(kinds), rule.blocked,
                  rule.is_custom)


# --------------------------------------------------------------------------- lowering


def _starts_in(work: ir.IntegerType, starts) -> list[ir.Value]:
    return [to_work(s, work) for s in starts]


def _common_work(starts) -> ir.IntegerType:
    types = {work_type(s.type.element_type) for s in starts}
    return types.pop() if len(types) == 1 else ir.IntegerType.get_signless(64)


def _constant_int(value: ir.Value) -> int | None:
    if isinstance(value, ir.OpResult) and value.owner.operation.name == "stablehlo.constant":
        try:
            return int(np.array(ir.DenseElementsAttr(
                value.owner.operation.attributes["value"])).reshape(-1)[0])
        except Exception:  # noqa: BLE001 - element types numpy cannot hold
            return None
    return None


def _clamped(value: ir.Value, low: int, high: int, work: ir.IntegerType) -> ir.Value:
    """clamp(low, value, high) (a constant in range stays as it is)."""
    known = _constant_int(value)
    if known is not None:
        if low <= known <= high and value.type.element_type == work:
            return value
        return scalar_of(min(max(known, low), high), work)
    return stablehlo.ClampOp(scalar_of(low, work), value, scalar_of(high, work)).result


def lower_dynamic_slice(lw, op: ir.Operation) -> None:
    """Start indices are clamped explicitly (in range for the local operand) before the
    op: XLA (jaxlib 0.10.2, CPU) folds dynamic_slice(dynamic_slice(x, a), b) into
    dynamic_slice(x, a + b) with ONE clamp, which is wrong when `a` is out of range,
    and the partitioned program puts dynamic slices behind this one (all_slice of its
    result, slices of per-device tables...)."""
    operand = op.operands[0]
    starts = list(op.operands[1:])
    sharding = lw.shardings.get(operand)
    global_sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
    lw.shrink_results(op)
    local = list(operand.type.shape)
    sizes = list(op.results[0].type.shape)
    op.attributes["slice_sizes"] = ir.DenseI64ArrayAttr.get(sizes)
    partial = {}  # dim -> (global size, local size, slice size)
    if sharding is not None:
        for d, dim in enumerate(sharding.dims):
            if dim.axes:
                full = global_size(lw, operand, d, sharding)
                if global_sizes[d] != full:
                    partial[d] = (full, local[d], global_sizes[d])
    if not partial and all(
            (k := _constant_int(st)) is not None and 0 <= k <= local[d] - sizes[d]
            for d, st in enumerate(starts)):
        return
    # A sliced sharded dim: each device slices its part of the window out of its shard
    # padded with `window` zeros on both sides, at (global start, clamped) - offset +
    # window: a window before or after the shard lands in the padding and reads zeros.
    # The partial windows sum to the slice (the result is unreduced on the dim's axes).
    # Other dims: dims taken whole start at 0 (globally and locally alike), unsharded
    # dims at the global start clamped as the op would.
    with op.location, ir.InsertionPoint(op):
        work = _common_work(starts)
        starts = _starts_in(work, starts)
        low = [0] * len(local)
        for d in range(len(local)):
            if d in partial:
                full, size, window = partial[d]
                low[d] = window
                offset = dim_offset(lw, sharding, d, size, work)
                clamped = _clamped(starts[d], 0, full - window, work)
                shifted = stablehlo.AddOp(stablehlo.SubtractOp(clamped, offset).result,
                                          scalar_of(window, work)).result
                starts[d] = _clamped(shifted, 0, size + window, work)
            else:
                starts[d] = _clamped(starts[d], 0, local[d] - sizes[d], work)
        if partial:
            element = operand.type.element_type
            padded_shape = [s + 2 * p for s, p in zip(local, low)]
            padded = stablehlo.PadOp(operand, zeros(tensor_type([], element)), low, low,
                                     [0] * len(local),
                                     results=[tensor_type(padded_shape, element)]).result
            lw.shardings[padded] = sharding
            op.operands[0] = padded
    for i, start in enumerate(starts):
        op.operands[1 + i] = start


def lower_dynamic_update_slice(lw, op: ir.Operation) -> None:
    operand, update = op.operands[0], op.operands[1]
    starts = list(op.operands[2:])
    sharding = lw.shardings.get(operand)
    update_sharding = lw.shardings.get(update)
    update_shape = list(update.type.shape)  # local already
    lw.shrink_results(op)
    if sharding is None or not any(d.axes for d in sharding.dims):
        return
    local = list(operand.type.shape)
    partial = []  # (dim, global size, local size, update size)
    for d, dim in enumerate(sharding.dims):
        if not dim.axes:
            continue
        full = global_size(lw, operand, d, sharding)
        shards = update_sharding.dim_shards(d) if update_sharding is not None else 1
        update_full = update_shape[d] * shards if lw.global_shape(update) is None \
            else lw.global_shape(update)[d]
        if update_full == full:
            continue  # covered: the update is sharded like the operand, starts at 0
        if shards != 1:
            raise ShardpyError(f"internal: dynamic_update_slice update dim {d} is sharded "
                               f"but covers part of the operand dim", op.location)
        partial.append((d, full, local[d], update_shape[d]))
    if not partial:
        return  # covered dims start at 0; unsharded dims are the same on every device
    # Each device writes the part of the update window [g, g + u) (g the clamped global
    # start) that falls in its rows [off, off + n): the update in the shard's frame,
    # u_shift[k] = update[k + off - g], taken out of the update padded with n - 1 on
    # both sides (exact wherever the window meets the shard), and a select where
    # 0 <= k + off - g < u. Unsharded partly updated dims keep the op's own window.
    element = operand.type.element_type
    sharded = {d for d, *_ in partial}
    with op.location, ir.InsertionPoint(op):
        work = _common_work(starts)
        starts = _starts_in(work, starts)
        pad = [0] * len(local)
        for d, full, size, window in partial:
            pad[d] = size - 1
        padded_shape = [s + 2 * p for s, p in zip(update_shape, pad)]
        padded = update
        if any(pad):
            padded = stablehlo.PadOp(update, zeros(tensor_type([], element)), pad, pad,
                                     [0] * len(local),
                                     results=[tensor_type(padded_shape, element)]).result
        window_shape = [local[d] if d in sharded else update_shape[d]
                        for d in range(len(local))]
        shift_starts = []
        mask = None
        zero = scalar_of(0, work)
        for d in range(len(local)):
            if d not in sharded:
                shift_starts.append(zero)
                continue
            _, full, size, window = next(p for p in partial if p[0] == d)
            offset = dim_offset(lw, sharding, d, size, work)
            clamped = _clamped(starts[d], 0, full - window, work)
            delta = stablehlo.SubtractOp(offset, clamped).result  # off - g
            shift = stablehlo.AddOp(delta, scalar_of(size - 1, work)).result
            # In range wherever the window meets the shard; clamped explicitly (see
            # lower_dynamic_slice) where it does not (masked there anyway).
            shift_starts.append(_clamped(shift, 0, window + size - 2, work))
            k = stablehlo.IotaOp(tensor_type(window_shape, work), d).result
            pos = stablehlo.AddOp(k, spread(delta, window_shape)).result
            inside = conjoin(compare(pos, spread(scalar_of(0, work), window_shape), "GE"),
                          compare(pos, spread(scalar_of(window, work), window_shape), "LT"))
            mask = conjoin(mask, inside)
        shifted = stablehlo.DynamicSliceOp(padded, shift_starts, window_shape,
                                           results=[tensor_type(window_shape, element)]).result
        for d in range(len(local)):
            # Sharded dims: the whole shard; others as the op clamps them (explicitly,
            # see lower_dynamic_slice).
            starts[d] = zero if d in sharded else _clamped(
                starts[d], 0, local[d] - update_shape[d], work)
        if window_shape == local:
            current = operand  # the window is the whole local shard
        else:
            # The op's own window along unsharded dims: read it, merge, write it back.
            current = stablehlo.DynamicSliceOp(operand, starts, window_shape,
                                               results=[tensor_type(window_shape, element)]
                                               ).result
        merged = stablehlo.SelectOp(mask, shifted, current).result
    # (Written back by the op itself: a window as big as the shard at 0 is a copy.)
    op.operands[1] = merged
    for i, start in enumerate(starts):
        op.operands[2 + i] = start
