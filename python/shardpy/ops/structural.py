"""Structural ops: functions, calls, terminators, region ops (while, case, if, manual
and named computations) and the sdy ops that constrain, reshard, group or fence values.
They have no sharding rule of their own (sdy.sharding_constraint excepted: elementwise);
each entry's Flow says declaratively which values they link (operand i to block
argument i, terminator operand i to result i, ...), for propagation, insert-reshards and
to-local alike.
"""
from __future__ import annotations

from .elementwise import elementwise
from .entry import INSERT_RESHARDS, PROPAGATE, Flow, OpFamily

_BOTH = frozenset({PROPAGATE, INSERT_RESHARDS})
_PROPAGATE = frozenset({PROPAGATE})

FAMILIES = (
    # Functions and calls.
    OpFamily(("func.func",), flow=Flow(function=True, program_regions=True)),
    OpFamily(("func.call",), flow=Flow(to_callee=True, stages=_BOTH)),
    # Terminators: operand i is the parent's result i (func.return: the function's).
    OpFamily(("func.return", "stablehlo.return", "sdy.return"),
             flow=Flow(to_parent=True, stages=_BOTH)),
    # Region ops.
    OpFamily(("stablehlo.while",), flow=Flow(
        operands_to_results=True, operands_to_args=True, returns_to_results=True,
        returns_to_args=True, program_regions=True, stages=_BOTH)),
    OpFamily(("stablehlo.case", "stablehlo.if"), flow=Flow(
        returns_to_results=True, program_regions=True, stages=_BOTH)),
    OpFamily(("sdy.manual_computation",), sharding_attr="out_shardings", flow=Flow(
        operands_to_args=True, returns_to_results=True, program_regions=True,
        inlined_by="to-local", stages=_BOTH)),
    OpFamily(("sdy.named_computation",), flow=Flow(
        operands_to_args=True, returns_to_results=True, program_regions=True,
        inlined_by=INSERT_RESHARDS, stages=_PROPAGATE)),
    # Value to value.
    OpFamily(("stablehlo.optimization_barrier", "sdy.propagation_barrier"),
             flow=Flow(operands_to_results=True, stages=_BOTH)),
    # A sharding constraint relates its operand and result dim by dim.
    OpFamily(("sdy.sharding_constraint",), rule=elementwise, caching="shapes",
             sharding_attr="sharding", unreduced_preserving=True,
             flow=Flow(operands_to_results=True, stages=_BOTH)),
    # What insert-reshards makes (it keeps them for later passes; to-local lowers those
    # left between meshes like a collective_permute).
    OpFamily(("sdy.reshard",), sharding_attr="sharding", collective_lowering=True,
             flow=Flow(operands_to_results=True, stages=_PROPAGATE)),
    OpFamily(("sdy.sharding_group",), flow=Flow(to_group=True, stages=_BOTH)),
    # A module-level symbol: links nothing.
    OpFamily(("sdy.mesh",), flow=Flow(stages=_PROPAGATE)),
)
