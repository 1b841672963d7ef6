"""all_gather and reduce_scatter along dim 0 for XLA:CPU: minor dims are slow there.

XLA:CPU (jaxlib 0.10.2) gathers or scatters along a dim that has a larger dim before it
several times slower than along dim 0: on the (2, 4) mesh, over "model", a device's
f32[8, 256, 1024] reduce_scattered along dim 2 takes 11-12 ms, along dim 0 (as
transposes around it) 3.6 ms; an f32[8, 256, 64] all_gathered along dim 2 7.0 ms,
along dim 0 1.4 ms (bench/README.md, sixteenth table). Its own partitioner's programs
do not meet it (they gather and scatter in layouts with that dim major); shardpy's
per-device programs, which reach XLA through a shard_map, do: a ViT whose features are
sharded ran 1.14x jax.jit's step with half its bytes.

So each such collective is moved to dim 0 by a transpose before it and one after it;
XLA makes the transposes layout changes or copies, far cheaper than the strided
collective.

before (per-device module):
    %s = "stablehlo.reduce_scatter"(%x) <{scatter_dimension = 2 : i64, ...}> ({...})
        : (tensor<8x256x1024xf32>) -> tensor<8x256x256xf32>
after:
    %t = stablehlo.transpose %x, dims = [2, 0, 1] : (...) -> tensor<1024x8x256xf32>
    %s = "stablehlo.reduce_scatter"(%t) <{scatter_dimension = 0 : i64, ...}> ({...})
        : (tensor<1024x8x256xf32>) -> tensor<256x8x256xf32>
    %b = stablehlo.transpose %s, dims = [1, 2, 0] : (...) -> tensor<8x256x256xf32>

Applied where the per-device module is compiled for the CPU (ir/xla_cpu.py), as the
fft layouts are: the partitioner's output stays platform-neutral.

Not in a module with a bf16 x bf16 dot (or convolution) of a wider result: XLA:CPU runs
such a dot whose operand comes through a transpose of an unfused value (a collective,
an optimization barrier) as a DotThunk that refuses it ("Unsupported element type for
DotThunk::Execute: BF16 x BF16 = F32"; jax.jit of the same program fails alike, pinned
in test/python/fuzz/test_xla_cpu_bugs.py). The whole module is left alone because
layouts travel through elementwise ops, regions and calls before such a dot.
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .utils import collect_ops

# op name -> the attribute naming the dim it gathers or scatters along
DIM_ATTRS = {"stablehlo.all_gather": "all_gather_dim",
             "stablehlo.reduce_scatter": "scatter_dimension"}


def collectives_on_dim0(module: ir.Operation) -> int:
    """Move every single-operand all_gather / reduce_scatter of a static shape along a
    dim with a larger-than-1 dim before it to dim 0, as above; returns how many."""
    ops = collect_ops(module)
    if any(_bf16_dot_widened(op) for op in ops):
        return 0
    moved = 0
    for op in ops:
        attr = DIM_ATTRS.get(op.name)
        if attr is None or len(op.operands) != 1 or len(op.results) != 1:
            continue
        t = op.operands[0].type
        if not (isinstance(t, ir.RankedTensorType) and t.has_static_shape):
            continue
        dim = ir.IntegerAttr(op.attributes[attr]).value
        if not off_dim0(t.shape, dim):
            continue
        with op.location:
            _move_to_dim0(op, attr, dim)
        moved += 1
    return moved


def off_dim0(shape, dim: int) -> bool:
    """Is a gather or scatter along `dim` of a buffer of `shape` one this rewrite moves
    (a larger-than-1 dim before it)? The choice's cost model asks it too
    (partition/plan_costs.py: the transposes a reduce_scatter costs here)."""
    return dim > 0 and prod(shape[:dim]) > 1


def _bf16_dot_widened(op: ir.Operation) -> bool:
    """A dot_general or convolution of bf16 operands whose result is not bf16."""
    if op.name not in ("stablehlo.dot_general", "stablehlo.convolution"):
        return False
    bf16 = [isinstance(ir.RankedTensorType(v.type).element_type, ir.BF16Type)
            for v in (*op.operands, op.results[0])]
    return all(bf16[:-1]) and not bf16[-1]


def _permuted(t: ir.RankedTensorType, perm: list[int]) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([t.shape[p] for p in perm], t.element_type)


def _move_to_dim0(op: ir.Operation, attr: str, dim: int) -> None:
    operand = op.operands[0]
    rank = ir.RankedTensorType(operand.type).rank
    perm = [dim] + [d for d in range(rank) if d != dim]
    back = [perm.index(d) for d in range(rank)]
    with ir.InsertionPoint(op):
        op.operands[0] = stablehlo.TransposeOp(operand, ir.DenseI64ArrayAttr.get(perm)).result
    result = op.results[0]
    result_type = ir.RankedTensorType(result.type)
    op.attributes[attr] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)
    result.set_type(_permuted(result_type, perm))
    with ir.InsertionPoint.after(op):
        restored = stablehlo.TransposeOp(result, ir.DenseI64ArrayAttr.get(back))
    result.replace_all_uses_except(restored.result, restored.operation)
