"""Which ops carry partial sums (`unreduced` axes) from operands to result.

Partial sums stay partial through linear ops (add/subtract of equally partial values,
negate, transpose, reshape, broadcast, float convert, one partial side of a multiply
or dot, a summing reduce) and are reduced only where a consumer needs the whole value:
shardpy-insert-reshards asks `carried_unreduced` when it places an op. Which ops are
linear, and how, it asks the op registry (shardpy.ops: `linear`).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..lowering.reducers import reducer_kind
from ..ops.entry import ALL_OPERANDS, ONE_SIDE, SINGLE_OPERAND
from ..ops.registry import ops_with

LINEAR_ALL_OPERANDS = ops_with(lambda e: e.linear == ALL_OPERANDS)
LINEAR_SINGLE_OPERAND = ops_with(lambda e: e.linear == SINGLE_OPERAND)
LINEAR_ONE_SIDE = ops_with(lambda e: e.linear == ONE_SIDE)


def carried_unreduced(op: ir.Operation, current, required):
    """Partial axes a linear op can carry from operands to its result:
    (result's carried axes, per-operand unreduced to keep), or None."""
    unreduced = [set(s.unreduced) if s is not None else set() for s in current]
    if not any(unreduced):
        return None
    name = op.name
    if name == "stablehlo.convert" and _is_float(op.operands[0].type) and _is_float(
            op.results[0].type):
        name = "stablehlo.negate"  # float -> float convert is linear
    if name == "stablehlo.reduce" and reducer_kind(op) == "sum":
        name = "stablehlo.negate"
    common = None
    if name in LINEAR_ALL_OPERANDS:
        common = set.intersection(*unreduced) if all(unreduced) else None
        if common is not None and any(u != common for u in unreduced):
            common = None
    elif name in LINEAR_SINGLE_OPERAND and len(unreduced) >= 1:
        common = unreduced[0] if not any(unreduced[1:]) else None
    elif name in LINEAR_ONE_SIDE:
        partial = [u for u in unreduced if u]
        common = partial[0] if len(partial) == 1 else None
    if not common:
        return None
    # Axes the op now shards a dim on cannot stay partial.
    for req in required:
        if req is not None:
            common -= {a for d in req.dims for a in d.axes}
    if not common:
        return None
    keep = [sorted(common & u, key=str) for u in unreduced]
    return sorted(common, key=str), keep


def _is_float(value_type: ir.Type) -> bool:
    return isinstance(value_type, ir.RankedTensorType) and isinstance(
        value_type.element_type, ir.FloatType)
