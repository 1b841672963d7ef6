"""Linear algebra and FFT: fft, cholesky, triangular_solve. Batch dims pass through; the
matrix (transformed) dims must be whole (need-replication factors: the planner gathers
them, or moves their axes onto a batch dim). Each is computed on shards as it is: one
device's batch slice is a batch of whole transforms or matrices, and fft_length names
only the whole trailing dims. XLA's own partitioner computes stablehlo.fft whole on every
device even where only batch dims are sharded (an all_gather of the whole operand).

before (@mesh = <["x"=2, "y"=4]>):
    %f = stablehlo.fft %s, type = FFT, length = [32]
        {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>}
        : (tensor<16x32xcomplex<f32>>) -> tensor<16x32xcomplex<f32>>
after shardpy-to-local (each device its 2 rows; nothing gathered):
    %f = stablehlo.fft %s, type = FFT, length = [32]
        : (tensor<2x32xcomplex<f32>>) -> tensor<2x32xcomplex<f32>>
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo as hlo

from ..sharding.op_rule import RuleBuilder
from .attrs import PASS, REPLICATE, across, ints
from .entry import LocalOp, OpFamily


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


# Computed on shards as they are (LocalOp's defaults): the rules keep every dim they
# transform whole, so a shard holds whole problems.
FAMILIES = (
    OpFamily(("stablehlo.fft",), rule=fft, local=LocalOp()),
    OpFamily(("stablehlo.cholesky",), rule=cholesky, local=LocalOp()),
    OpFamily(("stablehlo.triangular_solve",), rule=triangular_solve, local=LocalOp()),
)
