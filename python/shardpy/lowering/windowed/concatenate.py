"""concatenate on sharded dims: each operand's window of the result's shard, chosen per
position; a roll (a concatenate of slices of one array, roll_pieces) is computed from
that array's shards directly, its slices never computed. A rotation of the whole array
(jnp.roll: x[s:] then x[:s]) is one window that wraps around (Window.periodic): one
collective_permute per round and a concatenate, as XLA does, where each piece's window
and a select by position took two exchanges, two full-size buffers and a select.

before (x = %a on [{}, {"x"}] of 4 devices, 8 columns each; roll by 2):
    %0 = stablehlo.slice %a [0:2, 2:32]
    %1 = stablehlo.slice %a [0:2, 0:2]
    %2 = stablehlo.concatenate %0, %1, dim = 1
after shardpy-to-local:
    %own = stablehlo.slice %arg [0:2, 2:8]
    %h = stablehlo.slice %arg [0:2, 0:2]
    %halo = "stablehlo.collective_permute"(%h) {source_target_pairs = [[1, 0], [2, 1], [3, 2], [0, 3]]}
    %2 = stablehlo.concatenate %own, %halo, dim = 1
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..halo import Exchanger, Window
from ...ir.utils import const_i32
from ...sharding.model import TensorSharding
from .common import (Analysis, Halo, Placed, per_shard, shape_of, lowered, global_shape_of,
                     same_axes, cost_from, cannot_lower)


def _analyse_concatenate(op, operands, results) -> Analysis | None:
    out = results[0]
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    n = out.shards(dim)
    analysis = Analysis(attrs={"dim": dim, "offsets": []})
    offset = 0
    for i, src in enumerate(operands):
        for d in range(len(src.shape)):
            if src.shards(d) != out.shards(d) or not same_axes(src, d, out, d):
                return None
        analysis.attrs["offsets"].append(offset)
        if n > 1:
            L, M = per_shard(src.shape[dim], n), per_shard(out.shape[dim], n)
            analysis.add(Halo(i, dim, Window.affine(n, L, -offset, M, M)))
        offset += src.shape[dim]
    return analysis


def roll_pieces(op, global_shape=None):
    """A concatenate whose pieces are unit-stride slices, along the concat dim only,
    of one array x (a roll, a halo): (x, dim, per piece (start in x, length)); else
    None. `global_shape(x)`: x's global shape (default: its type's)."""
    if op.name != "stablehlo.concatenate":
        return None
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    source, pieces = None, []
    for value in op.operands:
        if not isinstance(value, ir.OpResult) or value.owner.operation.name != "stablehlo.slice":
            return None
        piece = value.owner.operation
        x = piece.operands[0]
        if source is None:
            source = x
        elif x != source:
            return None
        shape = global_shape(x) if global_shape is not None else shape_of(x.type)
        begin = list(ir.DenseI64ArrayAttr(piece.attributes["start_indices"]))
        limit = list(ir.DenseI64ArrayAttr(piece.attributes["limit_indices"]))
        stride = list(ir.DenseI64ArrayAttr(piece.attributes["strides"]))
        if any(st != 1 for st in stride) or any((b, e) != (0, size) for d, (b, e, size)
                                                in enumerate(zip(begin, limit, shape))
                                                if d != dim):
            return None
        pieces.append((begin[dim], limit[dim] - begin[dim]))
    return source, dim, pieces


def roll_sharding(op, sharding_of) -> TensorSharding | None:
    """How a roll-like concatenate (roll_pieces) is computed on shards: with x's
    sharding, when x is sharded along the concat dim and that divides the result;
    else None (the ordinary path). `sharding_of(value)`: current shardings."""
    found = roll_pieces(op)
    if found is None:
        return None
    x, dim, _ = found
    sharding = sharding_of(x)
    if sharding is None or sharding.unreduced:
        return None
    n = sharding.dim_shards(dim)
    if n == 1 or shape_of(op.results[0].type)[dim] % n:
        return None
    return sharding


def _roll_source(lw, op):
    """shardpy-to-local's side of roll_pieces: (x, its Placed, pieces) when the
    concatenate's result is sharded exactly like x with the concat dim sharded.
    Such a concatenate is computed from x's shards directly: the slices feeding only
    it are not computed at all."""
    found = roll_pieces(op, lambda x: global_shape_of(lw, x, shape_of(x.type)))
    if found is None:
        return None
    source, dim, pieces = found
    sharding = lw.shardings.get(source)
    result = lw.sharding_ahead(op.results[0])  # (feeds_roll: a user not lowered yet)
    if sharding is None or result is None or sharding.unreduced or result.unreduced:
        return None
    if sharding.dim_shards(dim) == 1 or any(a.axes != b.axes for a, b in zip(
            sharding.dims, result.dims)):
        return None
    return source, Placed(tuple(global_shape_of(lw, source, shape_of(source.type))), sharding), \
        pieces



def _rotation(pieces, size: int, out_size: int) -> int | None:
    """Where x's element 0 of the result reads from when the pieces (start, length)
    are x rotated (x[s:] then x[:s], the result as long as x: jnp.roll), else None."""
    if out_size != size or sum(length for _, length in pieces) != size:
        return None
    offset, first = 0, pieces[0][0]
    for start, length in pieces:
        if (start - offset - first) % size:
            return None
        offset += length
    return first


def feeds_roll(lw, op) -> bool:
    """Is `op` (a slice) used only by concatenates computed from its operand?"""
    users = [use.owner for use in op.results[0].uses]
    return bool(users) and all(_roll_source(lw, u.operation if hasattr(u, "operation")
                                            else u) is not None for u in users)


def lower_concatenate(lw, op) -> bool:
    result = op.results[0]
    out = Placed(shape_of(result.type), lw.shardings.get(result))
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    roll = _roll_source(lw, op) if out.shards(dim) > 1 else None
    if roll is not None:
        x, placed, starts = roll
        n = out.shards(dim)
        L, M = per_shard(placed.shape[dim], n), per_shard(out.shape[dim], n)
        analysis = Analysis(attrs={"offsets": []})
        shift = _rotation(starts, placed.shape[dim], out.shape[dim])
        if shift is not None:  # one window wrapping around (jnp.roll): no select
            starts = [(shift, out.shape[dim])]
        offset = 0
        for i, (start, length) in enumerate(starts):
            analysis.attrs["offsets"].append(offset)
            analysis.add(Halo(i, dim, Window.affine(n, L, start - offset, M, M,
                                                    periodic=shift is not None)))
            offset += length
        sources = [placed] * len(starts)
        pieces = [x] * len(starts)
    else:
        operands, results = lowered(lw, op)
        analysis = _analyse_concatenate(op, operands, results)
        if analysis is None:
            raise cannot_lower(op)
        if not analysis.halos:
            lw.shrink_results(op)
            return False
        sources, pieces = operands, list(op.operands)
    local_type = lw.local_of(result.type, out.sharding, op.location)
    with op.location, ir.InsertionPoint(op):
        ex = Exchanger(lw)
        windows = list(pieces)
        for halo in analysis.halos:
            placed = sources[halo.operand]
            windows[halo.operand] = ex.exchange(pieces[halo.operand], placed.sharding.mesh,
                                                placed.axes(dim), dim, halo.window)
        value = windows[-1]
        if len(windows) > 1:  # (a rotation is one window)
            # Global position along the dim of each element of this device's shard.
            i32 = ir.IntegerType.get_signless(32)
            shape = list(local_type.shape)
            M = shape[dim]
            base = lw.shard_scalar(out.sharding.mesh, out.axes(dim),
                                   [k * M for k in range(out.shards(dim))])
            position = stablehlo.AddOp(
                stablehlo.IotaOp(ir.RankedTensorType.get(shape, i32), dim).result,
                stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(shape, i32), base,
                                           []).result).result
            pred_type = ir.RankedTensorType.get(shape, ir.IntegerType.get_signless(1))
            for i in range(len(windows) - 2, -1, -1):
                limit = stablehlo.BroadcastInDimOp(
                    ir.RankedTensorType.get(shape, i32),
                    const_i32(analysis.attrs["offsets"][i + 1]), []).result
                before = stablehlo.CompareOp(position, limit,
                                             stablehlo.ComparisonDirectionAttr.get("LT"),
                                             results=[pred_type]).result
                value = stablehlo.SelectOp(before, windows[i], value).result
    lw.takes_over(value, result)  # (out.sharding: the result's)
    result.replace_all_uses_with(value)
    slices = []  # each slice op once, also one concatenated many times (erased once)
    for v in op.operands if roll is not None else []:
        if not any(v.owner.operation == seen for seen in slices):
            slices.append(v.owner.operation)
    op.erase()
    for piece in slices:  # computed from x instead; now unused
        if not list(piece.results[0].uses):
            piece.erase()
    return True


concatenate_cost = cost_from(_analyse_concatenate)
