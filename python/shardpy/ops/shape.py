"""Layout ops: broadcast_in_dim, transpose, reshape. They move elements without
computing: correct on shards as they are, partial values pass through them, and they
shape constants (propagation copies a shaped constant per use).
"""
from __future__ import annotations

from math import gcd

from ..sharding.op_rule import RuleBuilder
from .attrs import REPLICATE, ints
from .entry import SINGLE_OPERAND, LocalOp, OpFamily


def broadcast_in_dim(op, b: RuleBuilder):
    """Each result dim that comes from an operand dim of the same size shares its factor.
    A new result dim, or one that stretches a size-1 operand dim, gets its own factor;
    the stretched size-1 operand dim gets a separate size-1 factor."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    operand_dim = {out: d for d, out in enumerate(ints(op, "broadcast_dimensions"))}
    for out, size in enumerate(dst):
        d = operand_dim.get(out)
        if d is not None and src[d] == size:
            b.factor(size, {0: d}, {0: out})
            continue
        if d is not None:  # size 1 expanded in place
            b.factor(1, operands={0: d})
        b.factor(size, results={0: out})


def transpose(op, b: RuleBuilder):
    """Result dim i is operand dim permutation[i]."""
    src = b.operand_shapes[0]
    for out, d in enumerate(ints(op, "permutation")):
        b.factor(src[d], {0: d}, {0: out})


def reshape(op, b: RuleBuilder):
    """Walk both shapes major to minor, cutting them into common factors: a dim that is
    split (16 -> 4x4) or merged (4x4 -> 16) is a compound dim of several factors. Where
    the next chunks of the two sides differ (6x4 -> 4x6), they share their greatest
    common divisor (2) and each side gets factors of its own (3; 2) until the running
    products meet again (3x5 -> 5x3 shares nothing). Size-1 dims have their own factor.
    An empty tensor has nothing to shard: every dim is a factor of its own that stays
    whole (as in Shardy, no sharding moves through it)."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    if 0 in src:
        for d, size in enumerate(src):
            b.factor(size, operands={0: d}, kind=REPLICATE)
        for d, size in enumerate(dst):
            b.factor(size, results={0: d}, kind=REPLICATE)
        return None
    i = j = 0                  # current operand / result dim
    src_seen = dst_seen = 1    # product of the dims entered so far (current one included)
    src_done = dst_done = 1    # product of the factors given out so far

    def catch_up(rest: int, behind: int, ahead: int, common: int) -> int:
        """The next factor for the side whose factors lag behind the other side's."""
        if ahead % behind == 0 and rest % (ahead // behind) == 0:
            return ahead // behind      # meets the other side exactly
        if rest > common:
            return rest // common       # keeps the common part for a shared factor
        return rest

    while i < len(src) or j < len(dst):
        if i < len(src) and src[i] == 1:
            b.factor(1, operands={0: i})
            i += 1
            continue
        if j < len(dst) and dst[j] == 1:
            b.factor(1, results={0: j})
            j += 1
            continue
        if i < len(src) and src_seen == src_done:
            src_seen *= src[i]
        if j < len(dst) and dst_seen == dst_done:
            dst_seen *= dst[j]
        src_rest, dst_rest = src_seen // src_done, dst_seen // dst_done
        common = gcd(src_rest, dst_rest)
        if src_done == dst_done:
            if common > 1:
                b.factor(common, {0: i}, {0: j})
                src_done *= common
                dst_done *= common
            else:
                b.factor(src_rest, operands={0: i})
                b.factor(dst_rest, results={0: j})
                src_done *= src_rest
                dst_done *= dst_rest
        elif src_done < dst_done:
            size = catch_up(src_rest, src_done, dst_done, common)
            b.factor(size, operands={0: i})
            src_done *= size
        else:
            size = catch_up(dst_rest, dst_done, src_done, common)
            b.factor(size, results={0: j})
            dst_done *= size
        if i < len(src) and src_seen == src_done:
            i += 1
        if j < len(dst) and dst_seen == dst_done:
            j += 1


_LAYOUT = dict(local=LocalOp(), constant_shaper=True, linear=SINGLE_OPERAND,
               xla_moves_dynamic_slice=True, fused=True)

FAMILIES = (
    OpFamily(("stablehlo.broadcast_in_dim",), rule=broadcast_in_dim, **_LAYOUT),
    OpFamily(("stablehlo.transpose",), rule=transpose, pass_through=True,
             unreduced_preserving=True, **_LAYOUT),
    OpFamily(("stablehlo.reshape",), rule=reshape, pass_through=True,
             unreduced_preserving=True, **_LAYOUT),
)
