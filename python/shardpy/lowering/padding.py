"""Uneven dims: padded shards, and the masks that keep the padding away from real values.

A dim of N elements sharded n ways is held in shards of c = ceil(N / n) elements, as
XLA lays them out: shard i holds elements [i*c, min((i+1)*c, N)) and padding after
them (only the last shards have padding; some may be all padding, e.g. 2 over 4).
Padding holds garbage (whatever the runtime or an elementwise op left there). It may
stay garbage wherever elements are computed independently (elementwise ops, pass-through
dims of any op: garbage in, garbage out at the same places); it must not reach a real
element where an op combines elements along the dim:

  reductions over the dim        masked with the reduce's init value (the reducer's
  (sum/max/min/..., argmax)      identity; argmax: one more copy of the init pair)
  dot contractions over the dim  both operands masked with zeros (garbage * 0 may be NaN)
  reducing scatter batch dims    updates masked with the reducer's identity
  gather of a sharded row dim,   nothing: global indices are clamped to [0, N - size]
  dynamic_slice of the dim       first, so no device reads its padding
  scatter into a sharded dim     nothing: an index of N..(padded end) is written into
                                 the padding (out of bounds, skipped, unpartitioned)
  sort, top-k, cumulative and    never computed on an uneven dim (planned whole, or even
  windowed ops along the dim     only: `unevenly_shardable`)
  reshapes merging/splitting it  the same (compound dims must divide evenly)
  collectives                    all_gather / all_to_all into a whole dim slice the
                                 padding off; all_slice / reduce_scatter / all_to_all
                                 out of a whole dim pad it first; between two sharded
                                 layouts only where the blocks line up (`exact_step`),
                                 else the planner gathers the dim whole first

Planning (pure Python): `exact_step`, `unevenly_shardable`. Lowering (shardpy-to-local,
on local values): `mask_operands` (an op's LocalOp.padding masks), `fit_dim`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..ir.types import numpy_dtype
from ..ir.diagnostics import ShardpyError
from .reducers import identity_value, scatter_reducer
from ..sharding.op_rule import FactorKind, OpRule


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# --------------------------------------------------------------------------- planning


def exact_step(size: int, shards_a: int, shards_b: int) -> bool:
    """Can a dim of `size` go between `shards_a` and `shards_b` shards (one a multiple of
    the other) by a gather or slice of whole shards? Always from or to one shard (pad or
    trim); otherwise only when the blocks line up: ceil(size/more) * (more/fewer) ==
    ceil(size/fewer) (always when `more` divides `size`)."""
    more, fewer = max(shards_a, shards_b), min(shards_a, shards_b)
    if fewer == 1 or more == fewer:
        return True
    return ceil_div(size, more) * (more // fewer) == ceil_div(size, fewer)


def unevenly_shardable(rule: OpRule, masks_reductions: bool) -> list[bool]:
    """Per factor: may the op be computed with it sharded unevenly (its axes not dividing
    its size)? Pass-through factors some result has, and reduction factors of ops whose
    lowering masks the padding (`masks_reductions`), when the factor is the only one
    (of size > 1) in every dim that holds it: a dim that merges factors has shards that
    are not blocks of each factor. Permutation and need-replication factors, and
    factors of size 1: never (their data moves along the dim; nothing to split)."""
    sole = [True] * rule.num_factors
    for tensor in rule.operands + rule.results:
        for dim in tensor:
            big = [f for f in dim if rule.factor_sizes[f] > 1]
            if len(big) > 1:
                for f in big:
                    sole[f] = False
    in_results = {f for tensor in rule.results for dim in tensor for f in dim}
    ok = []
    for f, kind in enumerate(rule.kinds):
        # A pass-through factor only operands have (a size-1 dim a broadcast expands)
        # would turn an operand's padding into real result elements.
        allowed = (kind is FactorKind.PASS_THROUGH and f in in_results) or (
            kind is FactorKind.REDUCTION and masks_reductions)
        ok.append(allowed and sole[f] and rule.factor_sizes[f] > 1)
    return ok


# --------------------------------------------------------------------------- per-op masks


@dataclass(frozen=True)
class PadMask:
    """Mask the padding of operand `operand` along `dims` with `fill` before the op: an
    ir.Value (a scalar, e.g. a reduce's init value), "zero", or a reducer op name (its
    identity)."""

    operand: int
    dims: tuple[int, ...]
    fill: object


def reduce_padding(op: ir.Operation) -> list[PadMask]:
    """Every input along the reduced dims, with its init value (the reducer's identity;
    for argmax/argmin one more copy of the init pair, which never changes the result)."""
    n = len(op.results)
    dims = tuple(ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
    return [PadMask(i, dims, op.operands[n + i]) for i in range(n)]


def dot_general_padding(op: ir.Operation) -> list[PadMask]:
    dn = stablehlo.DotDimensionNumbers(op.attributes["dot_dimension_numbers"])
    return [PadMask(0, tuple(dn.lhs_contracting_dimensions), "zero"),
            PadMask(1, tuple(dn.rhs_contracting_dimensions), "zero")]


def dot_padding(op: ir.Operation) -> list[PadMask]:
    lhs_rank = op.operands[0].type.rank
    return [PadMask(0, (lhs_rank - 1,), "zero"), PadMask(1, (0,), "zero")]


def reads_no_padding(op: ir.Operation) -> list[PadMask]:
    """Nothing to mask: the op's lowering clamps global indices to [0, N - size] before
    shifting them to the shard (gather rows, dynamic_slice windows), so no device
    reads its padding."""
    return []


def scatter_padding(op: ir.Operation) -> list[PadMask]:
    """Updates along the batch dims only indices and updates have (a reducing scatter's
    reduction factor): padded updates carry garbage indices, so they are made the
    reducer's identity (combining it changes no element)."""
    reducer = scatter_reducer(op)
    if reducer is None:
        return []
    n = len(op.results)
    dn = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    window = set(dn.update_window_dims)
    explicit = set(dn.scatter_indices_batching_dims)
    dims, position = [], 0
    for u in range(op.operands[n + 1].type.rank):
        if u in window:
            continue
        indices_dim = position if position < dn.index_vector_dim else position + 1
        position += 1
        if indices_dim not in explicit:
            dims.append(u)
    return [PadMask(n + 1 + i, tuple(dims), reducer) for i in range(n)]


# --------------------------------------------------------------------------- lowering


def uneven_dims(sharding, global_shape: Sequence[int], dims=None) -> list[int]:
    """Dims (of `dims`, default all) whose shards are padded."""
    if sharding is None:
        return []
    candidates = range(len(global_shape)) if dims is None else dims
    return [d for d in candidates if sharding.dims[d].axes
            and global_shape[d] % sharding.dim_shards(d)]


def valid_mask(lw, sharding, global_shape: Sequence[int], local_shape: Sequence[int],
               dims: Sequence[int]) -> ir.Value:
    """tensor<local_shape x i1>: true at this device's real elements along `dims` (an
    element is real when its position is below the shard's count of real elements,
    min(c, max(0, N - index*c)), read from a per-device table)."""
    i32 = ir.IntegerType.get_signless(32)
    i1 = ir.IntegerType.get_signless(1)
    shape = list(local_shape)
    mask = None
    for d in dims:
        size, local = global_shape[d], local_shape[d]
        axes = sharding.dims[d].axes
        n = math.prod(a.size(sharding.mesh) for a in axes)
        counts = [min(local, max(0, size - k * local)) for k in range(n)]
        count = stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(shape, i32),
                                           lw.shard_scalar(sharding.mesh, axes, counts),
                                           []).result
        position = stablehlo.IotaOp(ir.RankedTensorType.get(shape, i32), d).result
        real = stablehlo.CompareOp(position, count,
                                   stablehlo.ComparisonDirectionAttr.get("LT")).result
        mask = real if mask is None else stablehlo.AndOp(mask, real).result
    assert mask is None or mask.type == ir.RankedTensorType.get(shape, i1)
    return mask


def fill_scalar(fill, element_type: ir.Type) -> ir.Value:
    """A rank-0 tensor holding `fill` (see PadMask)."""
    if isinstance(fill, ir.Value):
        return fill
    scalar = ir.RankedTensorType.get([], element_type)
    if fill == "zero":
        value = 0
    else:
        value = identity_value(fill, element_type)
    if isinstance(element_type, ir.ComplexType):
        dtype = numpy_dtype(element_type)
        return stablehlo.ConstantOp(ir.DenseElementsAttr.get(
            np.array(value, dtype=dtype), type=element_type)).result
    if isinstance(element_type, ir.IntegerType):
        width = ir.IntegerType(element_type).width
        value = int(bool(value)) if width == 1 else int(value)
        if value >= 2 ** 63:
            value -= 2 ** 64  # the bits of an unsigned 64-bit maximum
        attr = ir.IntegerAttr.get(element_type, value)
    else:
        attr = ir.FloatAttr.get(element_type, float(value))
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(scalar, attr)).result


def mask_operands(lw, op: ir.Operation, masks: Sequence[PadMask]) -> None:
    """Replace each masked operand of `op` (already local) by a copy whose padding along
    the mask's uneven dims holds the fill (a select; nothing where the dims are even).
    Operands laid out alike share one mask (argmax: values and indices)."""
    reals: dict = {}
    for mask in masks:
        value = op.operands[mask.operand]
        sharding = lw.shardings.get(value)
        shape = lw.global_shape(value)
        if shape is None and sharding is not None and any(
                sharding.dims[d].axes for d in mask.dims):
            raise ShardpyError(f"internal: operand {mask.operand} of {op.name} has no "
                               f"known global shape (a lowering without takes_over)",
                               op.location)
        dims = uneven_dims(sharding, shape, mask.dims) if shape is not None else []
        if not dims:
            continue
        local = list(value.type.shape)
        with op.location, ir.InsertionPoint(op):
            key = (sharding, tuple(shape), tuple(local), tuple(dims))
            real = reals.get(key)
            if real is None:
                real = reals[key] = valid_mask(lw, sharding, shape, local, dims)
            fill = fill_scalar(mask.fill, value.type.element_type)
            spread = stablehlo.BroadcastInDimOp(value.type, fill, []).result
            masked = stablehlo.SelectOp(real, value, spread).result
        lw.takes_over(masked, value)
        op.operands[mask.operand] = masked


def fit_dim(value: ir.Value, dim: int, size: int) -> ir.Value:
    """`value` with `dim` padded (at the end, zeros) or trimmed to `size` elements."""
    shape = list(value.type.shape)
    if shape[dim] == size:
        return value
    element = value.type.element_type
    rank = len(shape)
    if shape[dim] > size:
        limit = list(shape)
        limit[dim] = size
        return stablehlo.SliceOp(value, [0] * rank, limit, [1] * rank).result
    high = [0] * rank
    high[dim] = size - shape[dim]
    shape[dim] = size
    zero = fill_scalar("zero", element)
    return stablehlo.PadOp(value, zero, [0] * rank, high, [0] * rank,
                           results=[ir.RankedTensorType.get(shape, element)]).result
