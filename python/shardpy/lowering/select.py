"""shardpy-to-local for ops that select elements along a dim: top_k and reduce.

Each function takes the LocalLowering `lw` and one op whose operands are already local.

  chlo.top_k  along an unsharded dim: as it is, on the local rows. Along a dim that
              insert-reshards left sharded (LocalOp.split): each device takes the top k
              of its shard, its indices made global (plus the shard's offset); the k
              candidates of every shard are all_gathered along the dim, in shard order,
              and the top k of those k·n candidates are the result. chlo.top_k orders by
              value (greater first, floats in total order: +NaN > +inf > ... > +0 > -0 >
              ... > -NaN) and equal values by index; the candidates of a shard are in
              that order, shards come in index order, so a stable sort of the candidates
              by value (what chlo.top_k lowers to) keeps equal values in index order: the
              result is exactly the unsplit one. Every element of the global top k is in
              its shard's top k, as fewer than k elements precede it anywhere.
  reduce      a sum, max, min, ... over sharded dims: basic.lower_reduce. An
              argmax/argmin (reducers.is_select_pair_reduce) over a sharded dim: each
              device reduces its shard (indices are global: the iota operand is offset
              per shard), the per-shard (value, index) pairs are all_gathered along a new
              leading dim, in shard order, and reduced again with the same body and init
              values (see reducers.py for why that is exact, NaN and ties included).
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from . import basic
from ..ir.utils import after
from .reducers import reduce_combine
from ..sharding.sdy_codec import SHARDING_ATTR


# --------------------------------------------------------------------------- top_k


def top_k_can_split(op: ir.Operation, factor: int, shards: int) -> bool:
    """chlo.top_k may keep its last dim sharded `shards` ways when every shard holds at
    least k elements (a local top-k needs them)."""
    shape = list(op.operands[0].type.shape)
    if factor != len(shape) - 1:
        return False
    size = shape[-1]
    k = ir.IntegerAttr(op.attributes["k"]).value
    return shards > 1 and size % shards == 0 and size // shards >= k


def lower_top_k(lw, op: ir.Operation) -> None:
    operand = op.operands[0]
    sharding = lw.shardings.get(operand)
    lw.shrink_results(op)
    if sharding is None:
        return
    dim = len(operand.type.shape) - 1
    axes = tuple(sharding.dims[dim].axes)
    if not axes:
        return
    values, indices = op.results
    value_uses, index_uses = _uses(values), _uses(indices)
    mesh = sharding.mesh
    with op.location, after(op):
        offset = lw.offsets(sharding, list(operand.type.shape))[dim]
        index_type = indices.type
        scalar = stablehlo.ConvertOp(ir.RankedTensorType.get([], index_type.element_type),
                                     offset).result
        spread = stablehlo.BroadcastInDimOp(index_type, scalar, []).result
        global_indices = stablehlo.AddOp(indices, spread).result
        all_values, all_indices = lw.all_gather_together([values, global_indices], dim,
                                                         axes, mesh)
        sorted_values, sorted_indices = _sort_descending([all_values, all_indices], dim)
        shape = list(values.type.shape)
        top = [stablehlo.SliceOp(v, [0] * len(shape), shape, [1] * len(shape)).result
               for v in (sorted_values, sorted_indices)]
    for old, new, uses in ((values, top[0], value_uses), (indices, top[1], index_uses)):
        lw.takes_over(new, old)
        _redirect(uses, new)


def _sort_descending(inputs: list[ir.Value], dim: int) -> list[ir.Value]:
    """A stable sort of `inputs` along `dim` by the first one, greater first: what
    chlo.top_k lowers to (floats compared in total order)."""
    sort = stablehlo.SortOp([v.type for v in inputs], inputs, dimension=dim, is_stable=True)
    scalars = [ir.RankedTensorType.get([], v.type.element_type) for v in inputs]
    block = sort.operation.regions[0].blocks.append(*[t for t in scalars for _ in (0, 1)])
    with ir.InsertionPoint(block):
        lhs, rhs = block.arguments[0], block.arguments[1]
        is_float = isinstance(inputs[0].type.element_type, ir.FloatType)
        greater = stablehlo.CompareOp(
            lhs, rhs, stablehlo.ComparisonDirectionAttr.get("GT"),
            compare_type=stablehlo.ComparisonTypeAttr.get("TOTALORDER") if is_float
            else None).result
        stablehlo.ReturnOp([greater])
    return list(sort.results)


# --------------------------------------------------------------------------- reduce


def lower_reduce(lw, op: ir.Operation) -> None:
    found = basic.reduced_axes(lw, op)
    if found is None:  # nothing to combine across devices (cheaper to ask than the body)
        lw.shrink_results(op)
        return
    combine = reduce_combine(op)
    if combine != "select-pair":
        basic.lower_reduce(lw, op, combine)  # (reduce_combine is reducer_kind here)
        return
    lw.shrink_results(op)
    sharding, axes = found
    n = prod(a.size(sharding.mesh) for a in axes)
    results = list(op.results)
    count = len(results)
    uses = [_uses(r) for r in results]
    with op.location, after(op):
        lifted = [stablehlo.ReshapeOp(ir.RankedTensorType.get(
            [1] + list(r.type.shape), r.type.element_type), r).result for r in results]
        gathered = lw.all_gather_together(lifted, 0, axes, sharding.mesh)
        # The same reduce (body, init values) over the per-shard pairs, in shard order.
        final = op.clone()
    if SHARDING_ATTR in final.attributes:
        del final.attributes[SHARDING_ATTR]
    for i, value in enumerate(gathered):
        final.operands[i] = value
    final.attributes["dimensions"] = ir.DenseI64ArrayAttr.get([0])
    for result in final.results:
        lw.takes_over(result, results[result.result_number])
    assert n == gathered[0].type.shape[0]
    for i in range(count):
        _redirect(uses[i], final.results[i])


def _uses(value: ir.Value) -> list:
    """(user, operand number) of every use of `value`, taken before the lowering adds
    its own users."""
    return [(use.owner, use.operand_number) for use in value.uses]


def _redirect(uses: list, new: ir.Value) -> None:
    for user, number in uses:
        user.operands[number] = new
