"""Every fft's operand and result in XLA:CPU's default layout, which its fft thunk needs.

XLA:CPU (jaxlib 0.10.2) lays an all_gather along a dim other than 0 out with that dim
most major (the gathered pieces are then contiguous), and its layout assignment leaves
an fft's operand free: the fft then inherits such a layout, forward from an all_gather
of its operand or back from one of its result through elementwise ops, and fails at run
time ("RET_CHECK failure (.../fft_thunk.cc:168)
LayoutUtil::IsMonotonicWithDim0Major(input_shape_.layout())"). jax.jit's own programs
meet it too (test/Regressions/xla_fft_of_all_gather_along_minor_dim.mlir). shardpy
computes ffts on batch shards and gathers a sharded transformed dim just before them,
so its per-device programs meet it more often.

Each fft's operand and result go through a reshape to one dim and back with an
optimization_barrier between: a reshape of a tensor to rank 1 is a bitcast only from
the default layout, so XLA keeps (or copies into) that layout on both sides of the fft,
and the barrier keeps it from folding the two reshapes away. In the default layout the
reshapes are bitcasts: nothing is copied where nothing needed to be.

before (per-device module):
    %g = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, ...}> : (tensor<2x2x16xf32>) -> tensor<2x8x16xf32>
    %f = stablehlo.fft %g, type = RFFT, length = [8, 16] : (tensor<2x8x16xf32>) -> tensor<2x8x9xcomplex<f32>>
after:
    %g = "stablehlo.all_gather"(%x) ...
    %0 = stablehlo.reshape %g : (tensor<2x8x16xf32>) -> tensor<256xf32>
    %1 = stablehlo.optimization_barrier %0 : tensor<256xf32>
    %2 = stablehlo.reshape %1 : (tensor<256xf32>) -> tensor<2x8x16xf32>
    %f = stablehlo.fft %2, type = RFFT, length = [8, 16] ...
    %3 = stablehlo.reshape %f : (tensor<2x8x9xcomplex<f32>>) -> tensor<144xcomplex<f32>>
    ... (the same around the result; its users read the last reshape)

Applied where the per-device module is compiled for the CPU (shardpy.jit's executor,
shardpy-run's Executor), as cpu_slices.py is: the partitioner's output stays
platform-neutral.
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .utils import collect_ops


def fft_layouts_pinned(module: ir.Operation) -> int:
    """Put each fft's operand and result (static shapes of rank 2 or more: rank 1 has
    one layout) through the default layout as above; returns how many ffts were so
    rewritten."""
    ffts = [op for op in collect_ops(module) if op.name == "stablehlo.fft"
            and _static(op.operands[0].type) and _static(op.results[0].type)]
    for op in ffts:
        with op.location, ir.InsertionPoint(op):
            op.operands[0] = _through_default_layout(op.operands[0])[1]
        result = op.results[0]
        with op.location, ir.InsertionPoint.after(op):
            flatten, pinned = _through_default_layout(result)
        result.replace_all_uses_except(pinned, flatten)
    return len(ffts)


def _static(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.rank > 1


def _through_default_layout(value: ir.Value) -> tuple[ir.Operation, ir.Value]:
    """(the reshape reading `value`, `value` back through the barrier)."""
    t = ir.RankedTensorType(value.type)
    flatten = stablehlo.ReshapeOp(ir.RankedTensorType.get([prod(t.shape)], t.element_type),
                                  value)
    barrier = stablehlo.OptimizationBarrierOp([flatten.result])
    return flatten.operation, stablehlo.ReshapeOp(t, barrier.results[0]).result
