"""What the rule functions of every family module share: the factor kinds, readers of
op attributes (through jaxlib's attribute classes, never printed IR), and `across`,
Shardy's "pointwise" factor.

Conventions of the rules (see sharding/op_rule.py for the model):
  * shapes come from the builder (`b.operand_shapes`, `b.result_shapes`);
  * "across every tensor" means every operand and result of rank > 0 (scalar operands,
    such as a select's predicate or a pad's padding value, take no factor);
  * a dim that no factor covers gets its own factor of size 1 when the rule is built
    (RuleBuilder.build), as in Shardy.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..sharding.op_rule import FactorKind, RuleBuilder

PASS = FactorKind.PASS_THROUGH
REDUCTION = FactorKind.REDUCTION
REPLICATE = FactorKind.NEED_REPLICATION
PERMUTE = FactorKind.PERMUTATION


def ints(op, name: str) -> list[int]:
    """An `array<i64: ...>` attribute."""
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def ints_or(op, name: str, default: list[int]) -> list[int]:
    attrs = op.attributes
    return list(ir.DenseI64ArrayAttr(attrs[name])) if name in attrs else default


def int_attr(op, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def int_or(op, name: str, default: int) -> int:
    attrs = op.attributes
    return ir.IntegerAttr(attrs[name]).value if name in attrs else default


def across(b: RuleBuilder, dim: int, size: int, kind: FactorKind = PASS,
           blocked: bool = False) -> int:
    """One factor on `dim` of every tensor of rank > 0 (Shardy's "pointwise" factor)."""
    return b.factor(size, {i: dim for i, s in enumerate(b.operand_shapes) if s},
                    {i: dim for i, s in enumerate(b.result_shapes) if s}, kind, blocked)


def defining_op(value: ir.Value):
    """The op producing `value`, or None for a block argument."""
    return value.owner if isinstance(value, ir.OpResult) else None
