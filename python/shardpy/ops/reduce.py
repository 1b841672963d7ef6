"""Reductions: stablehlo.reduce. Reduced dims are reduction factors: computed on shards
when the body is one reducer with its identity as init value (a sum stays partial, a
max/min/... is finished by an all_reduce) or JAX's argmax/argmin comparator
(lowering/reducers.py reads the body, lowering/select.py lowers it).
"""
from __future__ import annotations

from ..lowering import padding as pad
from ..lowering import select
from ..lowering.reducers import reduce_combine
from ..sharding.op_rule import RuleBuilder
from .attrs import REDUCTION, ints
from .entry import LocalOp, OpFamily


def reduce(op, b: RuleBuilder):
    """Kept dims: in every input and result. Reduced dims: in the inputs only
    (reduction), for any number of inputs (argmax reduces values and indices together).
    Init values are scalars."""
    reduced = set(ints(op, "dimensions"))
    n = len(b.result_shapes)
    out = 0
    for d, size in enumerate(b.operand_shapes[0]):
        inputs = {i: d for i in range(n)}
        if d in reduced:
            b.factor(size, inputs, kind=REDUCTION)
        else:
            b.factor(size, inputs, {i: out for i in range(n)})
            out += 1


FAMILIES = (
    OpFamily(("stablehlo.reduce",), rule=reduce,
             local=LocalOp(reduce_combine, False, select.lower_reduce,
                           padding=pad.reduce_padding)),
)
