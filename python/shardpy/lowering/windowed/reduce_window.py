"""reduce_window on sharded dims: halos of the inputs (halo.sliding_window) and the
local op with padding only where the shard needs it; a cumulative reduction (cumsum,
cumprod, cummax, cummin) is a local scan finished with the combined totals of the
shards before (after) it.
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..halo import scalar_constant, sliding_window
from ..reducers import (COMBINABLE_REDUCERS, body_reducer, identity_value, is_identity_init,
                        reducer_op)
from ...ir.utils import after, reducer_region
from ...sharding.model import TensorSharding
from ...sharding.op_rule import FactorKind
from .common import (Analysis, Halo, per_shard, shape_of, lowered, element_bytes_of, ints,
                     padding_of, padding_attr, same_axes, cost_from, apply_halos, cannot_lower)


def _window_attrs(op, rank: int):
    return (ints(op, "window_dimensions", [1] * rank), ints(op, "window_strides", [1] * rank),
            ints(op, "base_dilations", [1] * rank), ints(op, "window_dilations", [1] * rank),
            padding_of(op, rank))


def reduce_window_windowed(op, rule) -> frozenset[int]:
    """Factors of dims whose window moves data (base dilation included: a dilated dim
    has more results than inputs, so it cannot stay sharded as it is)."""
    rank = len(shape_of(op.operands[0].type))
    window, stride, base, dilation, padding = _window_attrs(op, rank)
    dims = [d for d in range(rank) if (window[d], stride[d], base[d], dilation[d],
                                       padding[d]) != (1, 1, 1, 1, (0, 0))]
    return frozenset(f for t in rule.operands + rule.results for d in dims
                     if d < len(t) for f in t[d]) | frozenset(
        rule.factors_of(FactorKind.PERMUTATION))


def _scan_reducer(op) -> str | None:
    """The reducer of a single-input reduce_window whose body is one associative op and
    whose init is its identity (what a cumulative reduction may combine across shards)."""
    if len(op.operands) != 2:
        return None
    name = body_reducer(op.regions[0])
    if name not in COMBINABLE_REDUCERS:
        return None
    return name if is_identity_init(op.operands[1], name) else None


def reduce_window_variant(op):
    """A cumulative reduction is computed differently when its body is one associative
    op with an identity init."""
    return _scan_reducer(op)


def _analyse_reduce_window(op, operands, results) -> Analysis | None:
    count = len(op.results)
    inputs, out = operands[:count], results[0]
    src = inputs[0]
    rank = len(src.shape)
    window, stride, base, dilation, padding = _window_attrs(op, rank)
    analysis = Analysis(attrs={"padding": list(padding), "window": list(window),
                               "scans": []})
    local_out = out.local
    for d in range(rank):
        n = out.shards(d)
        for p in inputs + results:
            if p.shards(d) != n or not same_axes(p, d, out, d):
                return None
        if n == 1:
            continue
        if (window[d], stride[d], base[d], dilation[d], padding[d]) == (1, 1, 1, 1, (0, 0)):
            continue
        N = src.shape[d]
        reducer = _scan_reducer(op)
        scan = (reducer is not None and window[d] == N and stride[d] == 1 and base[d] == 1
                and dilation[d] == 1 and padding[d] in ((N - 1, 0), (0, N - 1)))
        if scan:
            L = per_shard(N, n)
            analysis.attrs["scans"].append((d, padding[d] == (0, N - 1)))
            analysis.attrs["window"][d] = L
            analysis.attrs["padding"][d] = (L - 1, 0) if padding[d][0] else (0, L - 1)
            # One all_gather of the shards' totals (one element along d) over the n
            # shards of d: costed as what it is, not as a halo's collective_permute.
            totals = prod(s for i, s in enumerate(local_out) if i != d) * n
            analysis.extra.append(("all_gather", n, (n - 1) / n * totals
                                   * element_bytes_of(op.results[0])))
            continue
        sw = sliding_window(n, N, out.shape[d], window[d], stride[d], dilation[d],
                            padding[d][0], base[d])
        if sw is None:
            return None
        for i in range(count):
            analysis.add(Halo(i, d, sw.window))
        analysis.attrs["padding"][d] = (sw.pad_low, sw.pad_high)
    return analysis


def lower_reduce_window(lw, op) -> None:
    operands, results = lowered(lw, op)
    analysis = _analyse_reduce_window(op, operands, results)
    if analysis is None:
        raise cannot_lower(op)
    count = len(op.results)
    if analysis.halos:
        with op.location, ir.InsertionPoint(op):
            values = apply_halos(lw, op, analysis, operands,
                                  fills=[op.operands[count + i] for i in range(count)])
        for i in range(count):
            op.operands[i] = values[i]
    op.attributes["padding"] = padding_attr(analysis.attrs["padding"])
    op.attributes["window_dimensions"] = ir.DenseI64ArrayAttr.get(analysis.attrs["window"])
    lw.shrink_results(op)
    for d, reverse in analysis.attrs["scans"]:
        _finish_scan(lw, op, operands[0].sharding, d, reverse)


def _finish_scan(lw, op, sharding: TensorSharding, dim: int, reverse: bool) -> None:
    """Local scans of each shard -> the global scan: combine each element with the
    combined totals of the shards before it (after it, for a reverse scan)."""
    result = op.results[0]
    rtype = ir.RankedTensorType(result.type)
    shape = list(rtype.shape)
    element = rtype.element_type
    reducer = reducer_op(op)
    mesh, axes = sharding.mesh, tuple(sharding.dims[dim].axes)
    n = sharding.dim_shards(dim)
    i32 = ir.IntegerType.get_signless(32)
    with op.location, after(op):
        starts, limits = [0] * len(shape), list(shape)
        if reverse:
            limits[dim] = 1
        else:
            starts[dim] = shape[dim] - 1
        total = stablehlo.SliceOp(result, starts, limits, [1] * len(shape)).result
        gathered_shape = list(shape)
        gathered_shape[dim] = n
        gathered_type = ir.RankedTensorType.get(gathered_shape, element)
        gathered = stablehlo.AllGatherOp([gathered_type], [total], dim, lw.groups(mesh, axes),
                                         channel_handle=lw.next_channel(),
                                         use_global_device_ids=True).results[0]
        me = lw.shard_scalar(mesh, axes, list(range(n)))
        index = stablehlo.IotaOp(ir.RankedTensorType.get(gathered_shape, i32), dim).result
        mine = stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(gathered_shape, i32), me,
                                          []).result
        before = stablehlo.CompareOp(index, mine, stablehlo.ComparisonDirectionAttr.get(
            "GT" if reverse else "LT"), results=[ir.RankedTensorType.get(
                gathered_shape, ir.IntegerType.get_signless(1))]).result
        identity = scalar_constant(element, identity_value(reducer, element))
        masked = stablehlo.SelectOp(before, gathered, stablehlo.BroadcastInDimOp(
            gathered_type, identity, []).result).result
        kept = [d for d in range(len(shape)) if d != dim]
        carried_type = ir.RankedTensorType.get([shape[d] for d in kept], element)
        carry = stablehlo.ReduceOp([carried_type], [masked], [identity], [dim])
        reducer_region(carry.operation.regions[0], element, reducer)
        spread = stablehlo.BroadcastInDimOp(rtype, carry.results[0], kept).result
        combined = ir.Operation.create(reducer, results=[rtype],
                                       operands=[spread, result]).results[0]
    lw.takes_over(combined, result)
    result.replace_all_uses_except(combined, [total.owner.operation,
                                              combined.owner.operation])


reduce_window_cost = cost_from(_analyse_reduce_window)
