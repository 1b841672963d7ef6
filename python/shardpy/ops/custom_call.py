"""stablehlo.custom_call: a rule per call target shardpy knows (as in Shardy), none for
any other target (callbacks, Mosaic kernels, GSPMD's @Sharding, lapack/cusolver
calls...). Computed on shards when its own `sdy.sharding_rule` says how or when it is a
top-k shardpy knows; else replicated.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..sharding.op_rule import RULE_ATTR, RuleBuilder
from .attrs import PASS, REPLICATE, across
from .entry import LocalOp, OpFamily
from .sort import top_k


def _pointwise(op, b: RuleBuilder):
    if b.result_shapes:
        b.pointwise(b.result_shapes[0])


def _eigh(op, b: RuleBuilder):
    """(eigenvectors, eigenvalues) = eigh(a): batch dims everywhere; a's rows go with the
    eigenvectors' rows, a's columns with their columns and with the eigenvalues."""
    a = b.operand_shapes[0]
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        across(b, d, a[d])
    b.factor(a[rows], {0: rows}, {0: rows})
    b.factor(a[cols], {0: cols}, {0: cols, 1: rows})


def _qr(op, b: RuleBuilder):
    """(q-ish, taus) = qr(a): batch dims everywhere; the matrix dims and the taus must be
    whole."""
    a, taus = b.operand_shapes[0], b.result_shapes[1]
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        across(b, d, a[d])
    b.factor(a[rows], {0: rows}, {0: rows}, REPLICATE)
    b.factor(a[cols], {0: cols}, {0: cols}, REPLICATE)
    b.factor(taus[rows], results={1: rows}, kind=REPLICATE)


def _householder_product(op, b: RuleBuilder):
    """q = householder_product(a, taus): batch dims everywhere; the matrix dims and the
    taus must be whole."""
    a, taus = b.operand_shapes
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        across(b, d, a[d])
    b.factor(a[rows], {0: rows}, {0: rows}, REPLICATE)
    b.factor(a[cols], {0: cols}, {0: cols}, REPLICATE)
    b.factor(taus[rows], {1: rows}, kind=REPLICATE)


def _approx_top_k(op, b: RuleBuilder):
    """(values, indices) = approx_top_k(x, iota, init, init_index): kept dims pass
    through; on the reduced dim, x and iota share one factor, the results another that
    must be whole and blocked."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        if size == dst[d]:
            across(b, d, size)
        else:
            b.factor(size, {0: d, 1: d})
            b.factor(dst[d], results={0: d, 1: d}, kind=REPLICATE, blocked=True)


def _x64_combine(op, b: RuleBuilder):
    """Elementwise; but when it feeds an rng_bit_generator (whose state must stay
    replicated and cannot be resharded), nothing may propagate through it."""
    feeds_rng = any(use.owner.name == "stablehlo.rng_bit_generator"
                    for use in op.results[0].uses)
    for d, size in enumerate(b.result_shapes[0]):
        across(b, d, size, REPLICATE if feeds_rng else PASS, blocked=feeds_rng)


CUSTOM_CALLS = {
    **dict.fromkeys((
        "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
        "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular",
        "LayoutConstraint", "mhlo.erf", "MoveToDevice", "MoveToHost", "X64SplitHigh",
        "X64SplitLow", "xla.megascale.provide_metadata",
        # XLA's SPMD-internal ops (GSPMD's own output): every result laid out as the input
        "_SPMDInternalOp_MultiPad", "_SPMDInternalOp_RotateRight",
        "_SPMDInternalOp_MultiRotate", "_SPMDInternalOp_MultiSlice",
        "_SPMDInternalOp_Wrap"), _pointwise),
    "Eigh": _eigh,
    "Qr": _qr,
    "QrDecompositionBlock": _qr,
    "ProductOfElementaryHouseholderReflectors": _householder_product,
    "mhlo.topk": top_k,
    # XLA's own TopK (its TopkRewriter's form, and what PyTorch/XLA's HLO carries): the
    # same (values, indices) of the last dim's k largest.
    "TopK": top_k,
    "ApproxTopK": _approx_top_k,
    "PartialReduce": _approx_top_k,
    "X64Combine": _x64_combine,
}
"""Custom call targets with a rule, as in Shardy. Any other target (callbacks, Mosaic
kernels, GSPMD's @Sharding, lapack/cusolver calls...) has none."""


def custom_call(op, b: RuleBuilder):
    """By call target (CUSTOM_CALLS); no rule for unknown targets."""
    rule = CUSTOM_CALLS.get(ir.StringAttr(op.attributes["call_target_name"]).value)
    if rule is None:
        return False
    return rule(op, b)


def _custom_call_target(op: ir.Operation) -> str:
    return ir.StringAttr(op.attributes["call_target_name"]).value


def _custom_call_local(op: ir.Operation) -> bool:
    """A custom_call is computed on shards when its own `sdy.sharding_rule` says how
    (the rule is the contract: pass-through dims are independent), or when it is a
    top-k whose rule shardpy knows; every other target is computed replicated."""
    if RULE_ATTR in op.attributes:
        return True
    return _custom_call_target(op) in ("ApproxTopK", "PartialReduce", "mhlo.topk", "TopK")


def _custom_call_combine(op: ir.Operation) -> str | None:
    """Reduction factors of a custom rule are sums, as in Shardy (its explicit reshards
    finish them with an all-reduce)."""
    return "sum" if RULE_ATTR in op.attributes else None


FAMILIES = (
    # Its rule may look at the op's users (X64Combine): caching "ir".
    OpFamily(("stablehlo.custom_call",), rule=custom_call, caching="ir",
             local=LocalOp(_custom_call_combine, applies=_custom_call_local)),
)
