"""gather on a sharded operand (see the package docstring's cases): window dims taken
whole get local slice sizes; a sharded collapsed dim gathers the rows of the shard
(global indices clamped, shifted by the shard's offset, other rows masked to zero), a
partial sum the planner finishes with gather_combine's "sum".
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...ir.diagnostics import ShardpyError
from ...ir.utils import after, zeros
from .common import (Indices, conjoin, compare, dim_offset, global_size, replace_result,
                     scalar_of, set_bool_attr, spread, summable, tensor_type)


def gather_combine(op: ir.Operation) -> str | None:
    """A gather on a sharded collapsed dim gives zeros for rows of other shards: a sum."""
    return "sum" if summable(op.results[0].type.element_type) else None


def lower_gather(lw, op: ir.Operation) -> None:
    operand, indices = op.operands[0], op.operands[1]
    sharding = lw.shardings.get(operand)
    lw.shrink_results(op)
    if sharding is None or not any(d.axes for d in sharding.dims):
        return
    dn = stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])
    batching = set(dn.operand_batching_dims)
    start_map = list(dn.start_index_map)
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
    local = list(operand.type.shape)
    reduced = []  # (operand dim, global size, local size)
    for d, dim in enumerate(sharding.dims):
        if not dim.axes or d in batching:
            continue  # explicit batching dims are sharded like the indices' ones
        full = global_size(lw, operand, d, sharding)
        if sizes[d] == full:
            sizes[d] = local[d]  # a window dim taken whole: the start is 0 anyway
        elif sizes[d] == 1:
            reduced.append((d, full, local[d]))
        else:
            raise ShardpyError(f"internal: gather operand dim {d} is sharded but sliced "
                               f"{sizes[d]} of {full}", op.location)
    op.attributes["slice_sizes"] = ir.DenseI64ArrayAttr.get(sizes)
    if not reduced:
        return
    # Rows of a sharded collapsed dim: the global start, clamped as the unpartitioned
    # gather clamps it, minus this shard's offset; rows of other shards are masked.
    result = op.results[0]
    mask = None
    with op.location, ir.InsertionPoint(op):
        idx = Indices(indices, dn.index_vector_dim)
        scalar_mask = None
        for d, full, size in reduced:
            offset = dim_offset(lw, sharding, d, size, idx.work)
            if d not in start_map:
                # The start is 0: only the shard holding row 0 contributes.
                scalar_mask = conjoin(scalar_mask, compare(offset, scalar_of(0, idx.work), "EQ"))
                continue
            c = start_map.index(d)
            clamped = stablehlo.ClampOp(scalar_of(0, idx.work), idx.get(c),
                                        scalar_of(full - 1, idx.work)).result
            shifted = stablehlo.SubtractOp(clamped, spread(offset, idx.component_shape)
                                           ).result
            idx.set(c, shifted)
            inside = conjoin(compare(shifted, idx.scalar(0), "GE"),
                          compare(shifted, idx.scalar(size), "LT"))
            mask = conjoin(mask, inside)
        op.operands[1] = idx.joined()
    set_bool_attr(op, "indices_are_sorted", False)
    out_type = result.type
    offset_dims = set(dn.offset_dims)
    batch_dims = [i for i in range(out_type.rank) if i not in offset_dims]
    i1 = ir.IntegerType.get_signless(1)
    with op.location, after(op):
        keep = None
        if mask is not None:
            keep = stablehlo.BroadcastInDimOp(tensor_type(out_type.shape, i1),
                                              idx.batch_mask(mask), batch_dims).result
        if scalar_mask is not None:
            keep = conjoin(keep, spread(scalar_mask, out_type.shape))
        masked = stablehlo.SelectOp(keep, result, zeros(out_type)).result
    replace_result(lw, result, masked)
