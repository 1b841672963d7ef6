"""shardpy-to-local for the basic local ops: constant, iota, reduce.

Each function takes the LocalLowering `lw` (local types, per-device offsets from
partition_id, collectives over mesh axes) and one op whose operands are already local.

  constant  a splat is rebuilt at the local shape; other constants are built whole and
            each device takes its block (dynamic_slice at its shard's offset; uneven
            dims padded to whole shards first, so the last block is not clamped)
  iota      along a sharded dim each device adds its shard's offset
  reduce    a max/min/multiply/and/or over sharded dims is finished by an all_reduce
            with the same reducer (sums stay unreduced: explicit all_reduces follow)
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..ir.utils import after, chain_readers
from .padding import fit_dim
from .reducers import reducer_kind, reducer_op


def lower_constant(lw, op: ir.Operation) -> None:
    result = op.results[0]
    sharding = lw.shardings.get(result)
    if sharding is None or not any(d.axes for d in sharding.dims):
        return
    attr = op.attributes["value"]
    local_type = lw.local_of(result.type, sharding, op.location)
    dense = ir.DenseElementsAttr(attr)
    if dense.is_splat:
        op.attributes["value"] = ir.DenseElementsAttr.get_splat(local_type, dense.get_splat_value())
        result.set_type(local_type)
        return
    # The full constant on every device, then this device's block of it.
    new_ops_at = after(op)
    with op.location, new_ops_at:
        whole = result
        for d, size in enumerate(local_type.shape):
            whole = fit_dim(whole, d, size * sharding.dim_shards(d))
        sliced = stablehlo.DynamicSliceOp(whole, lw.offsets(sharding, local_type.shape),
                                          list(local_type.shape),
                                          results=[local_type]).result
    lw.takes_over(sliced, result)
    # The first op made here (a pad of an uneven dim, else the slice) keeps `result`.
    first = whole if whole is not result else sliced
    while first.owner.operands[0] != result:
        first = first.owner.operands[0]
    result.replace_all_uses_except(sliced, first.owner.operation)


def lower_iota(lw, op: ir.Operation) -> None:
    result = op.results[0]
    sharding = lw.shardings.get(result)
    if sharding is None or not any(d.axes for d in sharding.dims):
        return
    dim = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    local_type = lw.local_of(result.type, sharding, op.location)
    result.set_type(local_type)
    if not sharding.dims[dim].axes:
        return
    with op.location, after(op):
        offset = lw.offsets(sharding, local_type.shape)[dim]
        element = local_type.element_type
        scalar = stablehlo.ConvertOp(ir.RankedTensorType.get([], element), offset).result
        spread = stablehlo.BroadcastInDimOp(local_type, scalar, []).result
        shifted = stablehlo.AddOp(result, spread).result
    lw.takes_over(shifted, result)
    result.replace_all_uses_except(shifted, shifted.owner.operation)


def reduced_axes(lw, op: ir.Operation):
    """(sharding of the first operand, the axes sharding its reduced dims), or None
    when a reduce's reduced dims are not sharded (nothing to combine across devices)."""
    sharding = lw.shardings.get(op.operands[0])
    if sharding is None:
        return None
    attr = op.attributes["dimensions"]
    dims = lw.reduced_dims.get(attr)  # (attributes are uniqued: each read once)
    if dims is None:
        dims = lw.reduced_dims[attr] = tuple(ir.DenseI64ArrayAttr(attr))
    axes = tuple(a for d in dims for a in sharding.dims[d].axes)
    return (sharding, axes) if axes else None


def lower_reduce(lw, op: ir.Operation, kind: str | None = "unknown") -> None:
    """`kind`: reducer_kind(op), where the caller knows it."""
    lw.shrink_results(op)
    if kind == "unknown":
        kind = reducer_kind(op)
    if kind != "self-combining":
        return
    found = reduced_axes(lw, op)
    if found is None:
        return
    sharding, axes = found
    result = op.results[0]
    with op.location, after(op):
        combined = lw.all_reduce(result, axes, sharding.mesh, reducer_op(op))
    lw.takes_over(combined, result)
    result.replace_all_uses_except(combined, chain_readers(combined, result))
