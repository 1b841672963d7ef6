"""Windowed ops: pad, slice, reverse, concatenate, reduce_window, select_and_scatter.
Their windowed, padded, sliced, reversed or concatenated dims are permutation factors:
kept sharded where lowering/windowed/ exchanges what each shard needs with its
neighbours (halos, shifts, mirrors), when that moves fewer bytes than gathering them.
(Convolution, windowed too, is in convolution.py.)
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..lowering.windowed import concatenate as concatenate_lowering
from ..lowering.windowed import pad_slice as pad_slice_lowering
from ..lowering.windowed import reduce_window as reduce_window_lowering
from ..lowering.windowed import select_and_scatter as select_and_scatter_lowering
from ..sharding.op_rule import RuleBuilder
from .attrs import PASS, PERMUTE, REPLICATE, across, defining_op, int_attr, ints, ints_or
from .entry import ALL_OPERANDS, SINGLE_OPERAND, LocalOp, OpFamily


def _windowed_dims(op, rank: int) -> list[bool]:
    """Per dim: does a window, stride or padding move data along it? (Base dilation
    alone does not count, as in Shardy.)"""
    windows = ints(op, "window_dimensions")
    strides = ints_or(op, "window_strides", [1] * rank)
    attrs = op.attributes
    padding = list(ir.DenseIntElementsAttr(attrs["padding"])) if "padding" in attrs \
        else [0] * (2 * rank)
    return [windows[d] != 1 or strides[d] != 1 or padding[2 * d] != 0
            or padding[2 * d + 1] != 0 for d in range(rank)]


def reduce_window(op, b: RuleBuilder):
    """One factor per dim, sized like the result (number of windows), shared by inputs
    and results; a permutation where windows overlap or move (window, stride, padding).
    Init values are scalars."""
    out = b.result_shapes[0]
    n = len(b.result_shapes)
    for d, windowed in enumerate(_windowed_dims(op, len(out))):
        b.factor(out[d], {i: d for i in range(n)}, {i: d for i in range(n)},
                 PERMUTE if windowed else PASS)


def select_and_scatter(op, b: RuleBuilder):
    """Unwindowed dims: one factor for operand, source and result. Windowed dims: one
    permutation factor (sized like the operand) for operand, source and result.
    DIFFERS FROM NATIVE: Shardy gives the source dim (one element per window) a
    separate need-replication factor, so a max-pool gradient gathers its cotangent;
    shardpy computes windowed dims sharded alike on all three (halos of operand and
    source, lowering/windowed/), so the source's sharding propagates with them."""
    operand = b.operand_shapes[0]
    for d, windowed in enumerate(_windowed_dims(op, len(operand))):
        b.factor(operand[d], {0: d, 1: d}, {0: d}, PERMUTE if windowed else PASS)


def _concat_moves_neighbours(op) -> bool:
    """True when the concatenated pieces are slices of one array, or all slices: then
    the concat only shifts data between neighbouring shards (e.g. a roll or a halo);
    otherwise pieces of unrelated arrays must be assembled whole."""
    all_slices, any_slice, sources = True, False, set()
    for value in op.operands:
        producer = defining_op(value)
        if producer is not None and producer.name == "stablehlo.slice":
            any_slice = True
            value = producer.operands[0]
        else:
            all_slices = False
        sources.add(value)
    return all_slices or (any_slice and len(sources) == 1)


def concatenate(op, b: RuleBuilder):
    """Dims other than the concat dim: one factor across operands and result. The concat
    dim: a permutation when every piece is a slice, or the pieces are one array and
    slices of it; else need-replication."""
    dim = int_attr(op, "dimension")
    concat_kind = PERMUTE if _concat_moves_neighbours(op) else REPLICATE
    for d, size in enumerate(b.result_shapes[0]):
        across(b, d, size, concat_kind if d == dim else PASS)


def slice_(op, b: RuleBuilder):
    """One factor per dim, sized like the operand; a sliced dim is a permutation (the
    kept elements move to other shards)."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        b.factor(size, {0: d}, {0: d}, PASS if size == dst[d] else PERMUTE)


def pad(op, b: RuleBuilder):
    """One factor per dim, sized like the operand; a padded dim is a permutation.
    DIFFERS FROM NATIVE: Shardy calls a dim padded when its size changes, so a shift
    (low = -k, high = +k) counts as pass-through although every element moves by k;
    we call a dim padded when any of its paddings is non-zero."""
    src = b.operand_shapes[0]
    low, high = ints(op, "edge_padding_low"), ints(op, "edge_padding_high")
    interior = ints(op, "interior_padding")
    for d, size in enumerate(src):
        moved = low[d] != 0 or high[d] != 0 or interior[d] != 0
        b.factor(size, {0: d}, {0: d}, PERMUTE if moved else PASS)


def reverse(op, b: RuleBuilder):
    """Elementwise, but reversed dims are permutations (shard k swaps with n-1-k)."""
    reversed_dims = set(ints(op, "dimensions"))
    for d, size in enumerate(b.result_shapes[0]):
        b.factor(size, {0: d}, {0: d}, PERMUTE if d in reversed_dims else PASS)



FAMILIES = (
    OpFamily(("stablehlo.pad",), rule=pad, xla_splits_all_to_all=True,
             local=LocalOp(None, True, pad_slice_lowering.lower_pad,
                           pad_slice_lowering.pad_cost)),
    OpFamily(("stablehlo.slice",), rule=slice_, linear=SINGLE_OPERAND, touches="result",
             local=LocalOp(None, True, pad_slice_lowering.lower_slice,
                           pad_slice_lowering.slice_cost)),
    OpFamily(("stablehlo.reverse",), rule=reverse, linear=SINGLE_OPERAND,
             local=LocalOp(None, True, pad_slice_lowering.lower_reverse,
                           pad_slice_lowering.reverse_cost)),
    # Its rule asks whether the pieces are slices (their producers): caching "ir".
    OpFamily(("stablehlo.concatenate",), rule=concatenate, caching="ir",
             linear=ALL_OPERANDS, xla_splits_all_to_all=True,
             local=LocalOp(None, True, concatenate_lowering.lower_concatenate,
                           concatenate_lowering.concatenate_cost)),
    OpFamily(("stablehlo.reduce_window",), rule=reduce_window,
             local=LocalOp(None, True, reduce_window_lowering.lower_reduce_window,
                           reduce_window_lowering.reduce_window_cost,
                           reduce_window_lowering.reduce_window_windowed,
                           reduce_window_lowering.reduce_window_variant)),
    OpFamily(("stablehlo.select_and_scatter",), rule=select_and_scatter,
             local=LocalOp(None, True, select_and_scatter_lowering.lower_select_and_scatter,
                           select_and_scatter_lowering.select_and_scatter_cost,
                           variant=select_and_scatter_lowering.select_and_scatter_variant)),
)
