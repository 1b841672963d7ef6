"""Pieces of a combined reduce_scatter kept out of their readers' fusions, for XLA:CPU.

shardpy-combine-collectives packs a block's reduce_scatters into one and slices each
result back out. XLA fuses each slice into the op that reads it (an optimizer update),
and XLA:CPU compiles fusions that differ in a constant, here the slice's offset, as
separate kernels: every layer's update becomes its own kernel where the layers' alike
updates would share one. On a 24-layer FSDP GPT train step, XLA's compile of shardpy's
per-device program took 32.8 s against 13.4 s without the combining (and 11.2 s for
jax.jit's own program). Taking the slices inside a conditional that XLA cannot fold
leaves the readers reading whole buffers, so alike updates share kernels again: 14.7 s
(first call 23.6 s against jax.jit's 13.7 s, was 42.8 s), and the combining's
step-time gain stays (8 layers: 0.87x the step without combining, 0.95x jax.jit's).

before (per-device module):
    %rs = "stablehlo.reduce_scatter"(%packed) ... -> tensor<1x136xf32>
    %a = stablehlo.slice %rs [0:1, 0:128] : (tensor<1x136xf32>) -> tensor<1x128xf32>
    %b = stablehlo.slice %rs [0:1, 128:136] : (tensor<1x136xf32>) -> tensor<1x8xf32>
after:
    %rs = "stablehlo.reduce_scatter"(%packed) ...
    %pid = stablehlo.partition_id : tensor<ui32>
    %i = stablehlo.convert (shift_right_logical %pid, 31) : tensor<i32>   // always 0
    %p:2 = "stablehlo.case"(%i) ({
      %a = stablehlo.slice %rs [0:1, 0:128]
      %b = stablehlo.slice %rs [0:1, 128:136]
      stablehlo.return %a, %b
    }, {
      stablehlo.return zeros, zeros    // never taken: partition ids are < 2^31
    })

Applied where the per-device module is compiled for the CPU (shardpy.jit's executor,
shardpy-run's Executor), not in the partitioner: on GPU a conditional makes the host
wait for its index, and the partitioner's output stays platform-neutral.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .utils import collect_ops, zeros


def slices_through_case(module: ir.Operation) -> int:
    """Rewrite every reduce_scatter read only by two or more slices as above; returns
    how many were rewritten."""
    found = []
    for op in collect_ops(module):
        if op.name != "stablehlo.reduce_scatter":
            continue
        users = [use.owner for use in op.results[0].uses]
        users = [getattr(u, "operation", u) for u in users]
        parent = op.parent
        if len(users) >= 2 and all(u.name == "stablehlo.slice" and u.parent == parent
                                   for u in users):  # (not again: then in a case)
            found.append((op, users))
    for op, slices in found:
        _rewrite(op, slices)
    return len(found)


def _rewrite(scatter: ir.Operation, slices: list) -> None:
    types = [s.results[0].type for s in slices]
    with scatter.location, ir.InsertionPoint.after(scatter):
        pid = stablehlo.PartitionIdOp().result
        shift = stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(
            pid.type, ir.IntegerAttr.get(ir.IntegerType.get_unsigned(32), 31))).result
        index = stablehlo.ConvertOp(
            ir.RankedTensorType.get([], ir.IntegerType.get_signless(32)),
            stablehlo.ShiftRightLogicalOp(pid, shift).result).result
        case = stablehlo.CaseOp(types, index, 2)
        with ir.InsertionPoint(case.regions[0].blocks.append()):
            pieces = []
            for s in slices:
                moved = s.clone()  # (the slice, now inside the branch)
                pieces.append(moved.results[0])
            stablehlo.ReturnOp(pieces)
        with ir.InsertionPoint(case.regions[1].blocks.append()):
            stablehlo.ReturnOp([zeros(t) for t in types])
    for s, result in zip(slices, case.results):
        s.results[0].replace_all_uses_with(result)
        s.erase()

