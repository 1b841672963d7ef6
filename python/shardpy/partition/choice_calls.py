"""How the whole-program choice (choose_shardings) reads calls and loops.

  single_calls    private functions called exactly once: their arguments and results
                  are chosen with their caller's values (the call's operands and the
                  callee's return are boundaries between the two)
  trip_weight     how many times an op runs: the trip counts of the loops around it
                  (through the call site of a function called once), which weigh its
                  costs
  called_in_manual_computations
                  functions reached from inside an sdy.manual_computation: per-device
                  code over the manual axes, which the choice leaves alone
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..sharding.state import ShardingState


def called_in_manual_computations(funcs) -> set[str]:
    """Functions called (directly or not) from inside an sdy.manual_computation: their
    values are per-device code over the manual axes, left alone like the body's."""
    by_name = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in funcs}
    found: set[str] = set()
    todo: list[str] = []

    def calls_in(op, inside: bool):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    inner = inner.operation
                    now = inside or inner.name == "sdy.manual_computation"
                    if now and inner.name == "func.call":
                        todo.append(ir.FlatSymbolRefAttr(inner.attributes["callee"]).value)
                    calls_in(inner, now)

    for func in funcs:
        calls_in(func, False)
    while todo:
        name = todo.pop()
        if name in found or name not in by_name:
            continue
        found.add(name)
        calls_in(by_name[name], True)
    return found


def trip_weight(op: ir.Operation, calls: dict) -> float:
    """How many times `op` runs: the product of the trip counts of the loops around it
    (a `compare LT` of a carry against a constant in the loop's condition; loops
    without one count once), through the call site of a function called once
    (`calls`: single_calls)."""
    weight = 1.0
    parent = op.parent
    seen = set()
    while parent is not None:
        if parent.name == "func.func":
            link = calls.get(symbol(parent))
            if link is None or symbol(parent) in seen:
                break
            seen.add(symbol(parent))
            parent = link[1]
        elif parent.name == "stablehlo.while":
            weight *= trip_count(parent)
        parent = parent.parent
    return weight


def symbol(func: ir.Operation) -> str:
    return ir.StringAttr(func.attributes["sym_name"]).value


def single_calls(ops, funcs_by_name, manual, state: ShardingState) -> dict:
    """{name: (callee, its call)} for private functions called exactly once among
    `ops` (shardpy's import gives each call site its own copy of a callee), neither
    from nor into a manual computation, nor from themselves, nor between meshes."""
    calls: dict = {}
    for op in ops:
        if op.name != "func.call":
            continue
        name = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
        calls.setdefault(name, []).append(op)
    found = {}
    for name, sites in calls.items():
        callee = funcs_by_name.get(name)
        if callee is None or len(sites) != 1 or name in manual or not callee.regions[0].blocks:
            continue
        visibility = callee.attributes["sym_visibility"] if "sym_visibility" in \
            callee.attributes else None
        if visibility is None or ir.StringAttr(visibility).value != "private":
            continue
        parent = sites[0].parent
        while parent is not None and parent.name != "func.func":
            parent = parent.parent
        if parent is None or symbol(parent) == name:
            continue
        call = sites[0]
        sides = (list(call.operands) + list(call.results)
                 + list(callee.regions[0].blocks[0].arguments))
        meshes = {s.mesh for s in map(state.of, sides) if s is not None}
        meshes |= {s.mesh for s in state.codec.func_result_shardings(callee)
                   if s is not None}
        if len(meshes) > 1:
            continue  # a call between meshes: moved as propagation placed it
        found[name] = (callee, call)
    return found


def trip_count(loop: ir.Operation) -> int:
    cond = loop.regions[0].blocks[0]
    for op in cond.operations:
        op = op.operation
        if op.name != "stablehlo.compare" or "LT" not in str(op.attributes[
                "comparison_direction"]):
            continue
        bound = op.operands[1]
        if isinstance(bound, ir.OpResult) and bound.owner.operation.name == \
                "stablehlo.constant":
            try:
                value = ir.DenseIntElementsAttr(bound.owner.operation.attributes["value"])
                return max(1, int(value[0]) if len(value) else 1)
            except (ValueError, TypeError, IndexError):
                return 1
    return 1
