"""Elementwise ops: element (i, j, ...) of the result needs element (i, j, ...) of each
operand. Their rule, and the traits of the few that partial (unreduced) values pass
through. (Shape-keeping collectives and sdy.sharding_constraint share the rule: see
collectives.py, structural.py.)
"""
from __future__ import annotations

from ..sharding.op_rule import RuleBuilder
from .attrs import REPLICATE
from .entry import ALL_OPERANDS, ONE_SIDE, SINGLE_OPERAND, LocalOp, OpFamily


def elementwise(op, b: RuleBuilder):
    """Element (i, j, ...) of the result needs element (i, j, ...) of each operand: one
    pass-through factor per dim, shared by every operand and result of the same rank."""
    if b.result_shapes:
        b.pointwise(b.result_shapes[0])


def bitcast_convert(op, b: RuleBuilder):
    """Same element width: elementwise. Otherwise the narrower side has one extra minor
    dim holding the pieces of one wide element; it must stay whole (need-replication)."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    common = src if len(src) <= len(dst) else dst
    for d, size in enumerate(common):
        b.factor(size, {0: d}, {0: d})
    if len(dst) > len(src):
        b.factor(dst[-1], results={0: len(dst) - 1}, kind=REPLICATE)
    elif len(src) > len(dst):
        b.factor(src[-1], operands={0: len(src) - 1}, kind=REPLICATE)


# DIFFERS FROM NATIVE: jaxlib's registry knows no chlo op (it warns "unknown to SDY
# sharding rule registry" and propagation stops there): XLA lowers chlo away before its
# own propagation sees the module. JAX emits these ops as-is (exact gelu's erf, lgamma,
# digamma, asinh, ...) and shardpy propagates on that module, so we give them the rule of
# what they lower to: elementwise (native has it for custom_call @mhlo.erf, for one).
CHLO_ELEMENTWISE = (
    "chlo._asin_acos_kernel", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh",
    "chlo.atan", "chlo.atanh", "chlo.bessel_i1e", "chlo.conj", "chlo.cosh",
    "chlo.digamma", "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf",
    "chlo.is_neg_inf", "chlo.is_pos_inf", "chlo.lgamma", "chlo.mulhi", "chlo.next_after",
    "chlo.polygamma", "chlo.sinh", "chlo.square", "chlo.tan", "chlo.zeta",
)

_ELEMENTWISE = dict(rule=elementwise, caching="shapes", fused=True, elementwise=True)

FAMILIES = (
    OpFamily((
        # unary
        "stablehlo.abs", "stablehlo.cbrt", "stablehlo.ceil",
        "stablehlo.count_leading_zeros", "stablehlo.cosine", "stablehlo.exponential",
        "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
        "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one",
        "stablehlo.logistic", "stablehlo.not", "stablehlo.popcnt", "stablehlo.real",
        "stablehlo.reduce_precision", "stablehlo.round_nearest_afz",
        "stablehlo.round_nearest_even", "stablehlo.rsqrt", "stablehlo.sign",
        "stablehlo.sine", "stablehlo.sqrt", "stablehlo.tan", "stablehlo.tanh",
        # binary
        "stablehlo.and", "stablehlo.atan2", "stablehlo.complex", "stablehlo.divide",
        "stablehlo.maximum", "stablehlo.minimum", "stablehlo.or", "stablehlo.power",
        "stablehlo.remainder", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
        "stablehlo.shift_right_logical", "stablehlo.xor",
    ), **_ELEMENTWISE),
    OpFamily(CHLO_ELEMENTWISE, **_ELEMENTWISE),
    # A sum or difference of partial sums is the partial sum of the sums.
    OpFamily(("stablehlo.add", "stablehlo.subtract"), linear=ALL_OPERANDS, **_ELEMENTWISE),
    # A product with one partial factor is partial.
    OpFamily(("stablehlo.multiply",), linear=ONE_SIDE, **_ELEMENTWISE),
    OpFamily(("stablehlo.negate",), linear=SINGLE_OPERAND, unreduced_preserving=True,
             **_ELEMENTWISE),
    # copy: no rule (JAX does not emit it to propagation), but it moves elements only.
    OpFamily(("stablehlo.copy",), linear=SINGLE_OPERAND, unreduced_preserving=True,
             fused=True),
    OpFamily(("stablehlo.convert",), local=LocalOp(), constant_shaper=True,
             xla_moves_dynamic_slice=True, **_ELEMENTWISE),
    # ternary (select, clamp), whose predicate / bounds may be scalars (those take no
    # factor); compare
    OpFamily(("stablehlo.compare", "stablehlo.select", "stablehlo.clamp"), local=LocalOp(),
             **_ELEMENTWISE),
    # (elementwise where the widths are equal: the rule is then pointwise)
    OpFamily(("stablehlo.bitcast_convert",), rule=bitcast_convert, fused=True,
             elementwise=True),
)
