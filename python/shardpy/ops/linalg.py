"""Linear algebra and FFT: fft, cholesky, triangular_solve. Batch dims pass through; the
matrix (transformed) dims must be whole. None is computed on shards: with a sharded
batch dim they are still correct per shard (pass-through), else computed replicated.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo as hlo

from ..sharding.op_rule import RuleBuilder
from .attrs import PASS, REPLICATE, across, ints
from .entry import OpFamily


def fft(op, b: RuleBuilder):
    """Leading dims are batch dims; the transformed (trailing) dims must be whole. A
    real FFT changes the last dim's size: Shardy keeps one operand-sized factor there
    and blocks propagation along it."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    batch_rank = len(src) - len(ints(op, "fft_length"))
    for d, size in enumerate(src):
        if d < batch_rank:
            across(b, d, size)
        else:
            across(b, d, size, REPLICATE,
                    blocked=d == len(src) - 1 and src[-1] != dst[-1])


def cholesky(op, b: RuleBuilder):
    """Batch dims pass through; the two matrix dims must be whole."""
    shape = b.operand_shapes[0]
    for d, size in enumerate(shape):
        across(b, d, size, PASS if d < len(shape) - 2 else REPLICATE)


def triangular_solve(op, b: RuleBuilder):
    """Solves op(a) @ x = b (left side) or x @ op(a) = b, with op(a) = a or its
    (conjugate) transpose. Batch dims pass through; each matrix dim links the operand
    dims the equation pairs up, and all must be whole."""
    a, rhs = b.operand_shapes
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        across(b, d, a[d])
    transposed = hlo.TransposeAttr(op.attributes["transpose_a"]).value in (
        "TRANSPOSE", "ADJOINT")
    if ir.BoolAttr(op.attributes["left_side"]).value:
        a_free, a_contract = (cols, rows) if transposed else (rows, cols)
        b.factor(a[a_free], {0: a_free, 1: rows}, kind=REPLICATE)       # rows of b
        b.factor(rhs[cols], {1: cols}, {0: cols}, kind=REPLICATE)       # cols of x, b
        b.factor(a[a_contract], {0: a_contract}, {0: rows}, kind=REPLICATE)  # rows of x
    else:
        a_free, a_contract = (rows, cols) if transposed else (cols, rows)
        b.factor(rhs[rows], {1: rows}, {0: rows}, kind=REPLICATE)       # rows of x, b
        b.factor(a[a_free], {0: a_free, 1: cols}, kind=REPLICATE)       # cols of b
        b.factor(a[a_contract], {0: a_contract}, {0: cols}, kind=REPLICATE)  # cols of x


FAMILIES = (
    OpFamily(("stablehlo.fft",), rule=fft),
    OpFamily(("stablehlo.cholesky",), rule=cholesky),
    OpFamily(("stablehlo.triangular_solve",), rule=triangular_solve),
)
