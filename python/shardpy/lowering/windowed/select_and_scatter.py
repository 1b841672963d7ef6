"""select_and_scatter on sharded dims: halos of operand and source covering every window
that touches the shard, positions outside the array filled with a value the select
never picks and the scatter's identity, the local op, the shard's part of its result.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..halo import Window, scalar_constant
from ..reducers import COMBINABLE_REDUCERS, body_reducer, identity_value
from ...ir.utils import after, const_i32
from .common import (Analysis, Halo, per_shard, shape_of, lowered, ints, padding_of,
                     padding_attr, same_axes, cost_from, apply_halos, cannot_lower)


def _select_fill(op) -> str | None:
    """'lowest' or 'highest': a value the select region never prefers to a real element
    (its body compares its arguments with GE/GT or LE/LT); None otherwise."""
    body = op.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) != 2 or ops[0].name != "stablehlo.compare":
        return None
    direction = str(ops[0].attributes["comparison_direction"])
    args = list(body.arguments)
    operands = list(ops[0].operands)
    if operands == args:
        swapped = False
    elif operands == args[::-1]:
        swapped = True
    else:
        return None
    if "GE" in direction or "GT" in direction:
        return "highest" if swapped else "lowest"
    if "LE" in direction or "LT" in direction:
        return "lowest" if swapped else "highest"
    return None


def select_and_scatter_variant(op):
    """Which padding positions can be filled depends on the select and scatter bodies."""
    return _select_fill(op), _scatter_identity(op)


def _analyse_select_and_scatter(op, operands, results) -> Analysis | None:
    src, source, out = operands[0], operands[1], results[0]
    rank = len(src.shape)
    window = ints(op, "window_dimensions", [1] * rank)
    stride = ints(op, "window_strides", [1] * rank)
    padding = padding_of(op, rank)
    analysis = Analysis(attrs={"padding": list(padding), "cut": {}})
    for d in range(rank):
        n = src.shards(d)
        for p in (source, out):
            if p.shards(d) != n or not same_axes(p, d, src, d):
                return None
        if n == 1 or (window[d], stride[d], padding[d]) == (1, 1, (0, 0)):
            continue
        N, W = src.shape[d], source.shape[d]
        L, M = per_shard(N, n), per_shard(W, n)
        w, s, (lo, _) = window[d], stride[d], padding[d]
        # Windows that touch positions [kL, (k+1)L) of the shard, and enough more that
        # their operand range covers the shard (strides longer than windows leave
        # positions no window selects): windows that do not touch the shard scatter
        # only outside it, and windows outside the source are filled with the scatter
        # identity, so extra windows change nothing the shard keeps.
        firsts = [min(-(-(k * L + lo - (w - 1)) // s), (k * L + lo) // s) for k in range(n)]
        lasts = [max(((k + 1) * L - 1 + lo) // s, -(-((k + 1) * L + lo - w) // s))
                 for k in range(n)]
        count = max(b - a + 1 for a, b in zip(firsts, lasts))
        if count <= 0:
            return None
        windows = Window(n, M, tuple(firsts), count)
        inputs = Window(n, L, tuple(a * s - lo for a in firsts), (count - 1) * s + w)
        if inputs.out_of_range and _select_fill(op) is None:
            return None
        if windows.out_of_range and _scatter_identity(op) is None:
            return None
        analysis.add(Halo(0, d, inputs))
        analysis.add(Halo(1, d, windows))
        analysis.attrs["padding"][d] = (0, 0)
        analysis.attrs["cut"][d] = [k * L - start for k, start in enumerate(inputs.starts)]
    return analysis


def _scatter_identity(op):
    name = body_reducer(op.regions[1])
    if name not in COMBINABLE_REDUCERS:
        return None
    return name


def lower_select_and_scatter(lw, op) -> None:
    operands, results = lowered(lw, op)
    analysis = _analyse_select_and_scatter(op, operands, results)
    if analysis is None:
        raise cannot_lower(op)
    if not analysis.attrs["cut"]:
        lw.shrink_results(op)
        return
    element = ir.RankedTensorType(op.operands[0].type).element_type
    with op.location, ir.InsertionPoint(op):
        fills = [None, None]
        outside = {h.operand for h in analysis.halos if h.window.out_of_range}
        fill = _select_fill(op)
        if 0 in outside and fill:
            fills[0] = scalar_constant(element, identity_value(
                "stablehlo.maximum" if fill == "lowest" else "stablehlo.minimum", element))
        scatter = _scatter_identity(op)
        source_element = ir.RankedTensorType(op.operands[1].type).element_type
        if 1 in outside and scatter:
            fills[1] = scalar_constant(source_element, identity_value(scatter,
                                                                     source_element))
        values = apply_halos(lw, op, analysis, operands, fills=fills)
    op.operands[0], op.operands[1] = values[0], values[1]
    op.attributes["padding"] = padding_attr(analysis.attrs["padding"])
    result = op.results[0]
    out = results[0]
    local_out = list(lw.local_of(result.type, out.sharding, op.location).shape)
    extended = ir.RankedTensorType.get(list(shape_of(values[0].type)), element)
    result.set_type(extended)
    with op.location, after(op):
        cut = analysis.attrs["cut"]
        if all(len(set(offsets)) == 1 for offsets in cut.values()):
            starts = [0] * len(local_out)
            for d, offsets in cut.items():
                starts[d] = offsets[0]
            if not any(starts) and list(extended.shape) == local_out:
                result.set_type(extended)
                return
            limits = [a + b for a, b in zip(starts, local_out)]
            sliced = stablehlo.SliceOp(result, starts, limits, [1] * len(local_out)).result
        else:
            starts = [const_i32(0)] * len(local_out)
            for d, offsets in cut.items():
                starts[d] = lw.shard_scalar(out.sharding.mesh, out.axes(d), offsets)
            sliced = stablehlo.DynamicSliceOp(result, starts, local_out, results=[
                ir.RankedTensorType.get(local_out, element)]).result
    lw.takes_over(sliced, result)  # (out.sharding: the result's)
    result.replace_all_uses_except(sliced, sliced.owner.operation)


select_and_scatter_cost = cost_from(_analyse_select_and_scatter)
