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
  hoisted_trips   the trip count of the loop an operand is invariant in: XLA hoists a
                  reshard of it out of the loop (while-loop invariant code motion), so
                  it is paid once, not once per trip
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


def call_sites(module_op: ir.Operation) -> dict:
    """{function name: its func.call} for the functions of `module_op` called from
    exactly one place (shardpy's import gives each call site its own copy of a callee;
    XLA inlines them)."""
    found: list = []

    def walk(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    found.append(inner.operation)
                    walk(inner.operation)

    walk(module_op)
    return _calls_and_loops(found)[0]


def _calls_and_loops(ops) -> tuple[dict, bool]:
    """(call_sites among `ops`, whether one of them is a stablehlo.while)."""
    sites: dict = {}
    loops = False
    for op in ops:
        name = op.name
        if name == "func.call":
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            sites[callee] = op if callee not in sites else None
        elif name == "stablehlo.while":
            loops = True
    return {name: call for name, call in sites.items() if call is not None}, loops


def remember_calls(memo, module_op: ir.Operation, ops) -> None:
    """Give `memo` (a plan_cache.PlanMemo) the call sites and loops of `module_op`
    read off `ops`, every op of its program (a pass's walk), for `hoisted`, which
    otherwise walks the module itself."""
    memo.keep(("call sites",), module_op, _calls_and_loops(ops))


def _up(op: ir.Operation, sites: dict):
    """The op around `op` (through the call site of a function called once), None at the
    top."""
    parent = op.parent
    if parent is not None and parent.name == "func.func":
        return sites.get(symbol(parent))
    return parent.operation if parent is not None else None


def enclosing_loop(op: ir.Operation, sites: dict):
    """The nearest stablehlo.while around `op`, through the call sites of functions
    called once (`sites`: call_sites); None outside loops."""
    loop = _up(op, sites)
    while loop is not None and loop.name != "stablehlo.while":
        loop = _up(loop, sites)
    return loop


def hoisted_trips(value: ir.Value, loop: ir.Operation, sites: dict) -> int:
    """How many runs of `loop` (enclosing_loop of the op reading `value`) a reshard of
    `value` is paid once for: the loop's trip count when `value` is invariant in it,
    else 1.

    Invariant: the loop's body reads a carry it returns unchanged (a scan's inputs, its
    weights), or a value made outside the loop. XLA hoists ops on such values out of
    the loop (while-loop invariant code motion), the collectives of a reshard too.

        %r = stablehlo.while(%xs = %0, %i = %c) ... do {
          %s = func.call @slice(%xs, %i)      // @slice's dynamic_slice of %arg0:
          stablehlo.return %xs, %next          //   a reshard of %arg0 runs once
        }
    """
    while isinstance(value, ir.BlockArgument):
        holder = value.owner.owner.operation
        if holder.name == "func.func":
            site = sites.get(symbol(holder))
            if site is None:
                return 1
            value = site.operands[value.arg_number]
            continue
        if holder == loop and value.owner == loop.regions[1].blocks[0]:
            body = value.owner.operations
            returned = body[len(body) - 1].operands[value.arg_number]
            return trip_count(loop) if returned == value else 1
        return 1  # a block argument of a region inside the loop
    op = value.owner.operation
    while op is not None:
        if op == loop:
            return 1  # made inside the loop
        op = _up(op, sites)
    return trip_count(loop)


def hoisted(op, operands, memo) -> tuple[int, ...] | None:
    """Per operand of `op`, hoisted_trips in the loop around `op`; None where that is 1
    for all (outside loops; without a memo: a plan_cache.PlanMemo, one pass's)."""
    if memo is None:
        return None
    found = memo.found.get(("call sites",))
    if found is None:  # (once per pass, unless remember_calls gave them)
        module = op
        while module.parent is not None:
            module = module.parent
        found = memo.keep(("call sites",), module, (call_sites(module), True))
    sites, loops = found
    if not loops:
        return None
    block = op.operation.block  # (blocks compare and hash by identity in the IR)
    loop = memo.found.get(("loop", block), False)
    if loop is False:
        loop = memo.keep(("loop", block), block, enclosing_loop(op, sites))
    if loop is None:
        return None
    trips = tuple(hoisted_trips(v, loop, sites) for v in operands)
    return trips if any(t > 1 for t in trips) else None
