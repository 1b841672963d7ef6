"""pad, slice and reverse on sharded dims: each device's window of the operand is one
shifted (pad, slice) or mirrored (reverse) block of the operand's shards, exchanged
with halo.Exchanger and finished by the local op (see the package docstring).
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..halo import Window
from ...ir.utils import after, const_i32
from .common import (Analysis, Halo, per_shard, shape_of, lowered, ints, same_axes,
                     cost_from, apply_halos, cannot_lower)
from .concatenate import feeds_roll


# --------------------------------------------------------------------------- pad


def _analyse_pad(op, operands, results) -> Analysis | None:
    src, out = operands[0], results[0]
    rank = len(src.shape)
    low = ints(op, "edge_padding_low", [0] * rank)
    high = ints(op, "edge_padding_high", [0] * rank)
    interior = ints(op, "interior_padding", [0] * rank)
    analysis = Analysis(attrs={"low": list(low), "high": list(high),
                               "interior": list(interior), "cut": {}})
    for d in range(rank):
        n = out.shards(d)
        if src.shards(d) != n or not same_axes(src, d, out, d):
            return None
        if n == 1 or (low[d], high[d], interior[d]) == (0, 0, 0):
            continue
        L, M, q = per_shard(src.shape[d], n), per_shard(out.shape[d], n), interior[d] + 1
        if q == 1:
            analysis.add(Halo(0, d, Window.affine(n, L, -low[d], M, M)))
            analysis.attrs["low"][d] = analysis.attrs["high"][d] = 0
            continue
        firsts = [(k * M - low[d]) // q for k in range(n)]
        lasts = [((k + 1) * M - 1 - low[d]) // q for k in range(n)]
        size = max(b - a + 1 for a, b in zip(firsts, lasts))
        offsets = [k * M - low[d] - a * q for k, a in enumerate(firsts)]
        padded = size + (size - 1) * interior[d]
        analysis.add(Halo(0, d, Window(n, L, tuple(firsts), size)))
        if len(set(offsets)) == 1:
            analysis.attrs["low"][d] = -offsets[0]
            analysis.attrs["high"][d] = M - padded + offsets[0]
        else:
            analysis.attrs["low"][d] = 0
            analysis.attrs["high"][d] = max(0, max(offsets) + M - padded)
            analysis.attrs["cut"][d] = offsets
    return analysis


def lower_pad(lw, op) -> bool:
    operands, results = lowered(lw, op)
    analysis = _analyse_pad(op, operands, results)
    if analysis is None:
        raise cannot_lower(op)
    src = operands[0]
    with op.location, ir.InsertionPoint(op):
        value = apply_halos(lw, op, analysis, operands, fills=[op.operands[1]])[0]
    op.operands[0] = value
    for name, key in (("edge_padding_low", "low"), ("edge_padding_high", "high")):
        op.attributes[name] = ir.DenseI64ArrayAttr.get(analysis.attrs[key])
    lw.shrink_results(op)
    result = op.results[0]
    cut = analysis.attrs["cut"]
    if analysis.halos and not cut and result.type == value.type and not any(
            analysis.attrs[k][d] for k in ("low", "high", "interior")
            for d in range(len(analysis.attrs["low"]))):
        lw.takes_over(value, result)
        result.replace_all_uses_with(value)  # the exchange did all the padding
        op.erase()
        return True
    if not cut:
        return False
    # Interior padding with shard offsets that differ: pad wide, cut each device's part.
    rtype = ir.RankedTensorType(result.type)
    # (A dim without elements pads to low + high: no interior between no elements.)
    padded = [a + max(a - 1, 0) * i + lo + hi for a, i, lo, hi in zip(
        shape_of(value.type), analysis.attrs["interior"], analysis.attrs["low"],
        analysis.attrs["high"])]
    local_out = list(rtype.shape)
    result.set_type(ir.RankedTensorType.get(padded, rtype.element_type))
    with op.location, after(op):
        starts = [const_i32(0)] * len(padded)
        for d, offsets in cut.items():
            starts[d] = lw.shard_scalar(src.sharding.mesh, src.axes(d), offsets)
        sliced = stablehlo.DynamicSliceOp(result, starts, local_out, results=[
            ir.RankedTensorType.get(local_out, rtype.element_type)]).result
    lw.takes_over(sliced, result)
    result.replace_all_uses_except(sliced, sliced.owner.operation)
    return False


# --------------------------------------------------------------------------- slice


def _analyse_slice(op, operands, results) -> Analysis | None:
    src, out = operands[0], results[0]
    rank = len(src.shape)
    starts = ints(op, "start_indices", [0] * rank)
    limits = ints(op, "limit_indices", list(src.shape))
    strides = ints(op, "strides", [1] * rank)
    analysis = Analysis(attrs={"start": list(starts), "limit": list(limits),
                               "stride": list(strides)})
    for d in range(rank):
        n = out.shards(d)
        if src.shards(d) != n or not same_axes(src, d, out, d):
            return None
        if n == 1:
            continue
        L, M = per_shard(src.shape[d], n), per_shard(out.shape[d], n)
        if src.shape[d] == out.shape[d]:  # whole dim kept (a slice keeps its order)
            analysis.attrs["start"][d], analysis.attrs["limit"][d] = 0, L
            analysis.attrs["stride"][d] = 1
            continue
        if M == 0:  # nothing kept (a scan's odd elements of one): no shard reads any
            analysis.attrs["start"][d] = analysis.attrs["limit"][d] = 0
            analysis.attrs["stride"][d] = 1
            continue
        size = (M - 1) * strides[d] + 1
        analysis.add(Halo(0, d, Window.affine(n, L, starts[d], M * strides[d],
                                                       size)))
        analysis.attrs["start"][d], analysis.attrs["limit"][d] = 0, size
    return analysis


def lower_slice(lw, op) -> bool:
    operands, results = lowered(lw, op)
    if operands[0].sharding is None:
        lw.shrink_results(op)
        return False
    if feeds_roll(lw, op):
        # Its concatenates read the operand's shards directly (lower_concatenate) and
        # erase this slice once unused: left as it is meanwhile.
        return False
    analysis = _analyse_slice(op, operands, results)
    if analysis is None:
        raise cannot_lower(op)
    with op.location, ir.InsertionPoint(op):
        value = apply_halos(lw, op, analysis, operands)[0]
    op.operands[0] = value
    for name, key in (("start_indices", "start"), ("limit_indices", "limit"),
                      ("strides", "stride")):
        op.attributes[name] = ir.DenseI64ArrayAttr.get(analysis.attrs[key])
    lw.shrink_results(op)
    result = op.results[0]
    if analysis.halos and result.type == value.type:  # the exchange did all the slicing
        lw.takes_over(value, result)
        result.replace_all_uses_with(value)
        op.erase()
        return True
    return False


# --------------------------------------------------------------------------- reverse


def _analyse_reverse(op, operands, results) -> Analysis | None:
    src, out = operands[0], results[0]
    analysis = Analysis()
    for d in ints(op, "dimensions", []):
        n = src.shards(d)
        if out.shards(d) != n or not same_axes(src, d, out, d):
            return None
        if n > 1:
            L = per_shard(src.shape[d], n)
            analysis.add(Halo(0, d, Window.affine(n, L, src.shape[d] - L, -L, L)))
    return analysis


def lower_reverse(lw, op) -> None:
    operands, results = lowered(lw, op)
    analysis = _analyse_reverse(op, operands, results)
    if analysis is None:
        raise cannot_lower(op)
    if analysis.halos:
        with op.location, ir.InsertionPoint(op):
            op.operands[0] = apply_halos(lw, op, analysis, operands)[0]
    lw.shrink_results(op)


pad_cost = cost_from(_analyse_pad)
slice_cost = cost_from(_analyse_slice)
reverse_cost = cost_from(_analyse_reverse)
