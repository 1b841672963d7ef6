"""Contractions: dot_general and dot. Contracted dims are reduction factors: computed
on shards they give partial sums, left unreduced until a consumer needs them whole.
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo as hlo

from ..lowering import padding as pad
from ..sharding.op_rule import RuleBuilder
from .attrs import REDUCTION
from .entry import ONE_SIDE, LocalOp, MultiplyAdds, OpFamily


def dot_general(op, b: RuleBuilder):
    """Batch dims: in lhs, rhs and result. Free dims of lhs, then of rhs: in that
    operand and the result. Contracting dims: in both operands, summed (reduction)."""
    dn = hlo.DotDimensionNumbers(op.attributes["dot_dimension_numbers"])
    lhs_batch, rhs_batch = dn.lhs_batching_dimensions, dn.rhs_batching_dimensions
    lhs_contract, rhs_contract = dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions
    lhs, rhs = b.operand_shapes
    out = 0
    for l, r in zip(lhs_batch, rhs_batch):
        b.factor(lhs[l], {0: l, 1: r}, {0: out})
        out += 1
    for operand, shape, skip in ((0, lhs, (*lhs_batch, *lhs_contract)),
                                 (1, rhs, (*rhs_batch, *rhs_contract))):
        for d, size in enumerate(shape):
            if d not in skip:
                b.factor(size, {operand: d}, {0: out})
                out += 1
    for l, r in zip(lhs_contract, rhs_contract):
        b.factor(lhs[l], {0: l, 1: r}, kind=REDUCTION)


def dot(op, b: RuleBuilder):
    """Vector or matrix operands: lhs rows and rhs columns (when matrices) reach the
    result; lhs's last dim and rhs's first are contracted."""
    lhs, rhs = b.operand_shapes
    out = 0
    if len(lhs) == 2:
        b.factor(lhs[0], {0: 0}, {0: out})
        out += 1
    if len(rhs) == 2:
        b.factor(rhs[1], {1: 1}, {0: out})
    b.factor(rhs[0], {0: len(lhs) - 1, 1: 0}, kind=REDUCTION)


def sum_combine(op: ir.Operation) -> str:
    """Contracting a sharded dim gives a partial sum."""
    return "sum"


def dot_general_multiply_adds(op, operands, results) -> MultiplyAdds:
    """One per result element and contracted lhs element (on local shapes)."""
    dn = hlo.DotDimensionNumbers(op.attributes["dot_dimension_numbers"])
    lhs = operands[0]
    return MultiplyAdds(prod(results[0]) * prod(lhs[d] for d in dn.lhs_contracting_dimensions))


def dot_multiply_adds(op, operands, results) -> MultiplyAdds:
    """One per result element and element of lhs's last (contracted) dim."""
    return MultiplyAdds(prod(results[0]) * operands[0][-1])


FAMILIES = (
    OpFamily(("stablehlo.dot_general",), rule=dot_general, linear=ONE_SIDE,
             local=LocalOp(sum_combine, padding=pad.dot_general_padding),
             multiply_adds=dot_general_multiply_adds),
    OpFamily(("stablehlo.dot",), rule=dot, linear=ONE_SIDE,
             local=LocalOp(sum_combine, padding=pad.dot_padding),
             multiply_adds=dot_multiply_adds),
)
