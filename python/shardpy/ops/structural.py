"""Structural ops: functions, calls, terminators, region ops (while, case, if, manual
and named computations) and the sdy ops that constrain, reshard, group or fence values.
They have no sharding rule of their own (sdy.sharding_constraint excepted: elementwise);
each entry's Flow says declaratively which values they link (operand i to block
argument i, terminator operand i to result i, ...) and, by its `kind`, which handler
propagation and insert-reshards run at them; to-local reads the same fields. A new
structural op is declared here only.
"""
from __future__ import annotations

from ..sharding.state import RESULT_SHARDING_ATTR
from .elementwise import elementwise
from .entry import (BRANCHES, CALL, CARRY, CONSTRAINT, EDGE, FUNCTION, FUNCTION_RETURN, GROUP,
                    INSERT_RESHARDS, LOOP, MANUAL, NAMED, PROPAGATION_BARRIER,
                    REGION_RETURN, RESHARD, SYMBOL, TO_LOCAL, Flow, OpFamily)

FAMILIES = (
    # Functions and calls.
    OpFamily(("func.func",), flow=Flow(FUNCTION, function=True, program_regions=True)),
    OpFamily(("func.call",), flow=Flow(CALL, to_callee=True)),
    # Terminators: operand i is the parent's result i (func.return: the function's).
    OpFamily(("func.return",), flow=Flow(FUNCTION_RETURN, to_parent=True)),
    OpFamily(("stablehlo.return", "sdy.return"), flow=Flow(REGION_RETURN, to_parent=True)),
    # Region ops.
    OpFamily(("stablehlo.while",), flow=Flow(
        LOOP, operands_to_results=True, operands_to_args=True, returns_to_results=True,
        returns_to_args=True, program_regions=True)),
    OpFamily(("stablehlo.case", "stablehlo.if"), flow=Flow(
        BRANCHES, returns_to_results=True, program_regions=True)),
    OpFamily(("sdy.manual_computation",),
             sharding_attr=RESULT_SHARDING_ATTR["sdy.manual_computation"], flow=Flow(
                 MANUAL, operands_to_args=True, returns_to_results=True,
                 program_regions=True, inlined_by=TO_LOCAL)),
    OpFamily(("sdy.named_computation",), flow=Flow(
        NAMED, operands_to_args=True, returns_to_results=True, program_regions=True,
        inlined_by=INSERT_RESHARDS)),
    # Value to value.
    OpFamily(("stablehlo.optimization_barrier",),
             flow=Flow(CARRY, operands_to_results=True)),
    OpFamily(("sdy.propagation_barrier",),
             flow=Flow(PROPAGATION_BARRIER, operands_to_results=True)),
    # A sharding constraint relates its operand and result dim by dim.
    OpFamily(("sdy.sharding_constraint",), rule=elementwise, caching="shapes",
             sharding_attr=RESULT_SHARDING_ATTR["sdy.sharding_constraint"],
             unreduced_preserving=True, flow=Flow(CONSTRAINT, operands_to_results=True)),
    # What insert-reshards makes (it keeps them for later passes; to-local lowers those
    # left between meshes like a collective_permute).
    OpFamily(("sdy.reshard",), sharding_attr=RESULT_SHARDING_ATTR["sdy.reshard"],
             collective_lowering=True, flow=Flow(RESHARD, operands_to_results=True)),
    OpFamily(("sdy.sharding_group",), flow=Flow(GROUP, to_group=True)),
    # Shardy's import marks each data-flow target (a region op's result or block
    # argument) with one: the result is the target under another name, and the edge's
    # `sharding` is the target's. Propagation reads and writes it; the partition passes
    # first sink it (partition/data_flow_edges.py).
    OpFamily(("sdy.data_flow_edge",), flow=Flow(EDGE, operands_to_results=True)),
    # A module-level symbol: links nothing.
    OpFamily(("sdy.mesh",), flow=Flow(SYMBOL)),
)
