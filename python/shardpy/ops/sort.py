"""Sorting and top-k: stablehlo.sort, chlo.top_k (and the top-k rule custom_call


@mhlo.topk shares). The dim sorted or selected along must be whole, save top_k's split:
a top-k per shard, then a top-k of the candidates (lowering/select.py).
"""
from __future__ import annotations

from math import log2, prod

from ..lowering import select
from ..sharding.op_rule import RuleBuilder
from .attrs import REPLICATE, across, int_or
from .entry import LocalOp, OpFamily


def sort(op, b: RuleBuilder):
    """Batch dims: pass-through across inputs and results. The sort dim must be whole;
    when it is the only dim of size > 1, propagation does not cross it either."""
    shape = b.operand_shapes[0]
    dim = int_or(op, "dimension", -1) % len(shape)
    only_dim = all(size == 1 for d, size in enumerate(shape) if d != dim)
    for d, size in enumerate(shape):
        if d == dim:
            across(b, d, size, REPLICATE, blocked=only_dim)
        else:
            across(b, d, size)


def top_k(op, b: RuleBuilder):
    """(values, indices) = top_k(x): the leading dims pass through; the last dim (the
    one selected along, shortened to k) must be whole, blocked, with one operand-sized
    factor, also when k is its whole size (the values are reordered along it).
    DIFFERS FROM NATIVE: native keeps a last dim of unchanged size (k = its size)
    pass-through, which computes a top_k of each shard."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        if d < len(src) - 1:
            across(b, d, size)
        else:
            across(b, d, size, REPLICATE, blocked=True)


def sort_compares(op, local_shapes) -> float:
    """A comparison sort of each line along the sorted dim: n log2(n) per line."""
    shape = local_shapes[0]
    if not shape:
        return 0.0
    n = shape[int_or(op, "dimension", -1) % len(shape)]
    return prod(shape) * log2(n) if n > 1 else 0.0


def top_k_compares(op, local_shapes) -> float:
    """A selection of k per line along the last dim: about n log2(k) per line."""
    shape = local_shapes[0]
    if not shape:
        return 0.0
    k = int_or(op, "k", shape[-1])
    return prod(shape) * log2(max(k, 2))


FAMILIES = (
    OpFamily(("stablehlo.sort",), rule=sort, local=LocalOp(), compares=sort_compares),
    # DIFFERS FROM NATIVE: native has no chlo rules (see CHLO_ELEMENTWISE); chlo.top_k is
    # what XLA turns into custom_call @mhlo.topk, so it gets that rule.
    OpFamily(("chlo.top_k",), rule=top_k,
             local=LocalOp(None, False, select.lower_top_k, split=select.top_k_can_split),
             compares=top_k_compares),
)
