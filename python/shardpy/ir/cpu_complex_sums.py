"""Complex all_reduce / reduce_scatter sums computed on real pairs for XLA:CPU.

XLA:CPU (jaxlib 0.10.2) aborts the process while compiling a summing all_reduce or
reduce_scatter of complex values that it sees as a broadcast complex constant: its
AlgebraicSimplifier fails "shape.h:843] Check failed: buffer != nullptr" in
HandleBroadcast (f32 is fine, so is a product, a non-broadcast complex constant or a
broadcast of a non-constant). jax.jit of a shard_map psum of jnp.full(4, 1+2j) aborts
the same way (pinned in test/python/fuzz/test_xla_cpu_bugs.py). shardpy meets it where
a complex reduce over a sharded dim of zero elements is finished across devices (fuzz
seed 9981257): XLA folds the empty reduce to a broadcast of its init value. What XLA
will fold to such a broadcast cannot be told from the StableHLO, so every such sum goes
through f32 (f64) pairs; a complex sum is the sum of the real and of the imaginary
parts, so the results are the same bits.

before (per-device module):
    %s = "stablehlo.all_reduce"(%x) ({ add }) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
after:
    %re = stablehlo.real %x, reshaped to tensor<4x1xf32>;  %im likewise
    %p = stablehlo.concatenate %re1, %im1, dim = 1 : tensor<4x2xf32>
    %q = "stablehlo.all_reduce"(%p) ({ add on f32 }) : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %s = stablehlo.complex (%q[:, 0], %q[:, 1] reshaped to tensor<4xf32>)

The pair is the new last dim, so a reduce_scatter keeps its scatter dimension (and
cpu_collective_dims, run after, sees the same dims before it). Applied where the
per-device module is compiled for the CPU (ir/xla_cpu.py), after cpu_slices (a combined
complex reduce_scatter's pieces then read the rebuilt complex value); the partitioner's
output stays platform-neutral.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .utils import collect_ops, reducer_region

SUMMING_COLLECTIVES = ("stablehlo.all_reduce", "stablehlo.reduce_scatter")


def complex_sums_on_pairs(module: ir.Operation) -> int:
    """Rewrite each single-operand summing all_reduce / reduce_scatter of a static
    complex shape as above; returns how many."""
    rewritten = 0
    for op in collect_ops(module):
        if op.name in SUMMING_COLLECTIVES and len(op.operands) == 1 \
                and _complex_static(op.operands[0].type) and _sums(op):
            with op.location:
                _on_pairs(op)
            rewritten += 1
    return rewritten


def _complex_static(t: ir.Type) -> bool:
    return (isinstance(t, ir.RankedTensorType) and t.has_static_shape
            and isinstance(t.element_type, ir.ComplexType))


def _sums(op: ir.Operation) -> bool:
    """The body is `^bb(%a, %b): return add(%a, %b)` (either order)."""
    block = op.regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    return (len(ops) == 2 and ops[0].name == "stablehlo.add"
            and set(ops[0].operands) == set(block.arguments)
            and list(ops[1].operands) == [ops[0].result])


def _on_pairs(op: ir.Operation) -> None:
    result_type = ir.RankedTensorType(op.results[0].type)
    part = ir.ComplexType(result_type.element_type).element_type
    with ir.InsertionPoint(op):
        pair = _pair(op.operands[0], part)
        attributes = {name: op.attributes[name] for name in op.attributes}
        summed = ir.Operation.create(
            op.name, results=[_shaped(list(result_type.shape) + [2], part)],
            operands=[pair], attributes=attributes, regions=1)
        reducer_region(summed.regions[0], part, "stablehlo.add")
        halves = [_half(summed.result, k, part) for k in (0, 1)]
        joined = stablehlo.ComplexOp(*halves).result
    op.results[0].replace_all_uses_with(joined)
    op.erase()


def _shaped(shape: list[int], element_type: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(shape, element_type)


def _pair(value: ir.Value, part: ir.Type) -> ir.Value:
    """(real, imag) of `value` along a new last dim."""
    shape = list(ir.RankedTensorType(value.type).shape)
    column = _shaped(shape + [1], part)
    halves = [stablehlo.ReshapeOp(column, piece(value).result).result
              for piece in (stablehlo.RealOp, stablehlo.ImagOp)]
    return stablehlo.ConcatenateOp(halves, dimension=len(shape)).result


def _half(pairs: ir.Value, k: int, part: ir.Type) -> ir.Value:
    """`pairs[..., k]`, without the pair dim."""
    shape = list(ir.RankedTensorType(pairs.type).shape)
    rank = len(shape)
    sliced = stablehlo.SliceOp(pairs, ir.DenseI64ArrayAttr.get([0] * (rank - 1) + [k]),
                               ir.DenseI64ArrayAttr.get(shape[:-1] + [k + 1]),
                               ir.DenseI64ArrayAttr.get([1] * rank)).result
    return stablehlo.ReshapeOp(_shaped(shape[:-1], part), sliced).result
