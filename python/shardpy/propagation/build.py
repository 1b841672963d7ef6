"""Building the propagation graph (graph.py) from a module: one walk over the func
bodies, each op read once.

An op with a sharding rule becomes a node (its rule looked up through rule_cache.py);
the structural ops (`_STRUCTURAL`: loops, branches, calls, barriers, sharding
constraints, named and manual computations...) only organise data flow and become
identity edges between slots, or seed slots with the shardings they fix. Each
structural op also leaves a write-back action on the graph (write_back.py).

Which ops are structural or constant-like, it asks the op registry (shardpy.ops: the
entries' Flow.kind, `source`, `constant_shaper`).

While building, the constant-like ops met are classified the way
prescan.split_constants classifies them, so that the pass can tell from the graph
whether splitting constants would change anything.
"""
from __future__ import annotations

from itertools import chain, islice
from typing import Callable, Iterable

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.callbacks import is_python_callback
from ..ir.utils import collect_ops
from ..ops.entry import (BRANCHES, CALL, CARRY, CONSTRAINT, EDGE, FUNCTION_RETURN, GROUP,
                         LOOP, MANUAL, NAMED, PROPAGATION_BARRIER, REGION_RETURN, RESHARD,
                         SYMBOL)
from ..ops.registry import by_flow_kind, ops_with
from ..sharding.factors import Direction
from ..sharding.op_rule import RULE_ATTR, RuleTable, shape_of
from ..sharding.sdy_codec import SHARDING_ATTR
from .graph import FuncLink, Graph, Node, identity_rule, strip_axes
from .rule_cache import (_RULE_FROM_ATTRIBUTES, _RULE_FROM_IR, _RULE_FROM_SHAPES, _RULE_NEVER,
                         _SDY_OP, _STRUCTURE)
from .speed import _MISSING, _NO_VIEWS
from .write_back import write_func, write_manual, write_results, write_sharding_attr


# Ops that only build constant data: each use gets its own copy before propagation, so
# one constant feeding differently sharded users is not pulled between them.
CONSTANT_SOURCES = ops_with(lambda e: e.source)
CONSTANT_SHAPERS = ops_with(lambda e: e.constant_shaper)
_CONSTANT_NAMES = CONSTANT_SOURCES | CONSTANT_SHAPERS


class _OpsMismatch(Exception):
    """The recorded op list does not match the blocks being built."""


class _BlockOps:
    """Hands the graph builder the ops of each block from a Prescan's `ops` (one list
    for the whole module, nested ops right after their parent), checking that each
    block's first and last op are where the list has them."""

    def __init__(self, ops: Iterable[tuple[ir.Operation, str]]):
        self.rest = iter(ops)
        self._next = self.rest.__next__

    def top(self, op: ir.Operation) -> None:
        """Step over a top-level op (its nested ops follow as the blocks are built)."""
        if self.take()[0] != op:
            raise _OpsMismatch()

    def take(self) -> tuple[ir.Operation, str]:
        try:
            return self._next()
        except StopIteration:
            raise _OpsMismatch() from None


def build_graph(module: ir.Operation, table: RuleTable, groups: list | None = None,
                ops: Iterable[tuple[ir.Operation, str]] | None = None) -> Graph:
    """`groups`: the module's sdy.sharding_group ops, where the caller knows them;
    `ops`: Prescan(module, record_ops=True).recorded(), where the caller has them."""
    if ops is not None:
        try:
            return _build_graph(module, table, groups, _BlockOps(ops))
        except Exception:  # noqa: BLE001 - _OpsMismatch, or what building the wrong op
            pass  # raised: build from the blocks themselves (which raises real errors)
    return _build_graph(module, table, groups, None)


def _build_graph(module: ir.Operation, table: RuleTable, groups: list | None,
                 block_ops: _BlockOps | None) -> Graph:
    g = Graph(module, table)
    g.block_ops = block_ops
    _collect_sharding_groups(g, module, groups)
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if block_ops is not None:
            block_ops.top(op)
        if op.name == "func.func":
            _build_func(g, op)
    result_edges = []
    for callee, call, results, _, _ in g.pending_calls:
        returned = _region_terminator_operands(callee.regions[0])
        first = len(g.nodes)
        for value, slot in zip(returned, results):
            _identity_edge(g, call, [g.slot(value)], slot, "call_edge")
        result_edges.append((first, len(g.nodes)))
    if g.pending_calls:
        g.reorder(_inlined_order(g, result_edges))
    apply_constraints(g)
    return g


def _inlined_order(g: Graph, result_edges: list[tuple[int, int]]) -> list[int]:
    """The nodes in the order Shardy visits them first: its import turns each call into
    a named computation holding the callee's body (edges on the arguments first, the
    callee's ops, edges on the results right after), and its worklist starts with the
    ops in program order. As built, a callee's nodes follow its caller's and the result
    edges come last: a user of a call's result (a dot) then settles a conflict before
    the result is sharded and keeps what the result, its larger operand, would have won
    (test/Propagation/func_call_visit_order.mlir)."""
    calls, funcs = g.pending_calls, g.func_nodes
    callees = {call[3] for call in calls if call[3] in funcs}
    order: list[int] = []
    spliced: set[str] = set()

    def emit(name: str) -> None:
        first, end, first_call, end_call = funcs[name]
        for k in range(first_call, end_call):
            position, callee = calls[k][4], calls[k][3]
            order.extend(range(first, position))
            first = position
            if callee in funcs and callee not in spliced:
                spliced.add(callee)
                emit(callee)
            order.extend(range(*result_edges[k]))
        order.extend(range(first, end))

    for name in [n for n in funcs if n not in callees] + list(funcs):
        if name not in spliced:  # (callees no caller reaches last, as built)
            spliced.add(name)
            emit(name)
    return order


def apply_constraints(g: Graph) -> None:
    """A value nobody sharded takes the sharding its closed constraints ask for (Shardy's
    apply-sharding-constraints): when every sharding constraint and manual computation
    using it asks for the same closed sharding, and no data-flow edge feeds it."""
    for value, wanted in g.constraint_uses.items():
        slot = g.value_slot.get(value, -1)
        if slot < 0 or g.shardings[slot] is not None or slot in g.edge_targets:
            continue
        first = wanted[0]
        if any(w != first for w in wanted[1:]):
            continue
        if not all(d.closed for d in first.dims):
            continue
        g.shardings[slot] = g.intern(first)


def _collect_sharding_groups(g: Graph, module: ir.Operation, ops: list | None = None) -> None:
    if ops is None:
        ops = [op for op in collect_ops(module) if op.name == "sdy.sharding_group"]
    groups: dict[int, list[ir.Value]] = {}
    for op in ops:
        group = ir.IntegerAttr(op.attributes["group_id"]).value
        groups.setdefault(group, []).append(op.operands[0])
    for members in groups.values():
        g.grouped = True
        g.constant_like = None  # slots no longer name one value each
        slot = g.slot(members[0])
        g.alias(members[1:], slot)


def _build_func(g: Graph, func_op) -> None:
    body = func_op.regions[0].blocks[0]
    codec = g.codec
    arg_shardings = codec.func_arg_shardings(func_op)
    arg_slots = []
    for arg, sharding in zip(body.arguments, arg_shardings):
        slot = g.slot(arg)
        arg_slots.append(slot)
        if sharding is not None:
            g.seed(slot, sharding, func_op.location)
    result_shardings = codec.func_result_shardings(func_op)
    ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
    result_slots = []
    for t, sharding in zip(ftype.results, result_shardings):
        result_slots.append(g.new_slot(shape_of(t), sharding)
                            if isinstance(t, ir.RankedTensorType) else -1)
    first, first_call = len(g.nodes), len(g.pending_calls)
    terminator = _build_block(g, body)  # (saves finding the block's last op again)
    g.func_nodes[ir.StringAttr(func_op.attributes["sym_name"]).value] = (
        first, len(g.nodes), first_call, len(g.pending_calls))
    for value, result_slot in zip(terminator.operands if terminator is not None else (),
                                  result_slots):
        if result_slot >= 0:
            g.func_links.append(FuncLink(g.slot(value), result_slot))
    g.writers.append(lambda w: write_func(w, func_op, arg_slots, result_slots))


def _seed_results(g: Graph, op: ir.Operation) -> list[int]:
    slots = [g.slot(r) for r in op.results]
    attrs = op.attributes
    if SHARDING_ATTR in attrs:
        _seed_from_attr(g, op, attrs, slots)
    return slots


def _build_block(g: Graph, block: ir.Block) -> ir.Operation | None:
    """Every op of `block` into the graph; returns the block's last op (None if it has
    none). The hot loop of building: every binding call costs about a microsecond, so
    each op is read once (name, attributes present, results and their types, operands)
    and everything derived from its rule is shared per op signature (a Fragment)."""
    rules = g.rules
    op_kinds, fragments, value_slot, type_info = rules.op_kinds, rules.fragments, \
        g.value_slot, g.type_info
    shapes, type_ids, shardings, slot_nodes = g.shapes, g.type_ids, g.shardings, g.slot_nodes
    nodes, result_writes, grouped, irregular = g.nodes, g.result_writes, g.grouped, \
        g.irregular
    new_node, both = Node.__new__, Direction.BOTH
    constant_like, constant_slots = g.constant_like, g.constant_slots
    block_ops = g.block_ops
    if block_ops is None:
        entries = [(op.operation, op.operation.name) for op in block.operations]
    else:
        count = len(block.operations)
        if not count:
            return None
        first = block_ops.take()
        # Taken one by one: the ops nested in a structural op come from the same list.
        # (Should the list end early, so does this loop, and the check below fails.)
        entries = chain((first,), islice(block_ops.rest, count - 1))
    op = None
    for op, name in entries:
        kind = op_kinds.get(name)
        if kind is None:
            kind = op_kind(g, name)
        if kind >= _STRUCTURE:
            if kind == _STRUCTURE:
                _STRUCTURAL[name](g, op)
            else:
                _build_sdy_collective(g, op)
            continue
        attrs = op.attributes
        if len(attrs):
            seeded = SHARDING_ATTR in attrs
            own_rule = RULE_ATTR in attrs
        else:
            attrs = None
            seeded = own_rule = False
        try:
            value = op.result  # one binding call for the common case: one result
        except ValueError:
            value = None
        if value is not None:  # _result_slots, inline for one result
            value_type = value.type
            info = type_info.get(value_type)
            if info is None:
                info = g.type_of(value_type)
            type_id, shape = info
            result_types = (type_id,)
            if grouped and value in value_slot:
                results = [value_slot[value]]
            else:
                if shape is None:
                    slot = -1
                else:  # g.new_slot(shape, None, type_id), inline
                    slot = len(shapes)
                    shapes.append(shape)
                    type_ids.append(type_id)
                    shardings.append(None)
                    slot_nodes.append([])
                value_slot[value] = slot
                results = [slot]
        else:  # no result or several (rare)
            results, result_types = _result_slots(g, op.results)
        if seeded:
            _seed_from_attr(g, op, attrs, results)
        operands = []
        for operand in op.operands:
            slot = value_slot.get(operand)
            if slot is None:
                slot = g.slot(operand)
            operands.append(slot)
        if name in _CONSTANT_NAMES and constant_like is not None:
            # split_constants' classification, from slots: a source, or a shaper of a
            # scalar or of a constant-like value (producers are built before users).
            if len(results) != 1 or results[0] < 0:
                g.constant_like = constant_like = None  # split_constants will tell
            elif name in CONSTANT_SOURCES or (
                    len(operands) == 1 and operands[0] >= 0
                    and (shapes[operands[0]] == () or operands[0] in constant_slots)):
                constant_slots.add(results[0])
                constant_like.append((op, value, seeded))
            elif len(operands) == 1 and operands[0] < 0:
                g.constant_like = constant_like = None
        if own_rule:
            kind = _RULE_FROM_ATTRIBUTES
        if kind == _RULE_NEVER:
            fragment = None
        elif kind == _RULE_FROM_IR:
            fragment = rules.fragment(op, name, attrs, own_rule)
        else:
            if -1 in operands:
                operand_types = tuple(type_ids[s] if s >= 0 else g.type_of(v.type)[0]
                                      for s, v in zip(operands, op.operands))
            elif len(operands) == 2:  # (the usual counts spelled out: cheaper than map)
                operand_types = (type_ids[operands[0]], type_ids[operands[1]])
            elif len(operands) == 1:
                operand_types = (type_ids[operands[0]],)
            else:
                operand_types = tuple(map(type_ids.__getitem__, operands))
            if kind == _RULE_FROM_SHAPES or attrs is None:
                key = (name, operand_types, result_types)
            else:
                key = (name, operand_types, result_types, tuple(attrs.values()))
            fragment = fragments.get(key, _MISSING)
            if fragment is _MISSING:
                fragment = fragments[key] = rules.fragment(op, name, attrs, own_rule)
        if fragment is None:
            # (A Python callback needs none: JAX places it on one device, where the
            # partitioner runs it: partition/maximal.py.)
            if name not in g.missing_rules and not is_python_callback(op):
                g.missing_rules[name] = op.location
        else:
            # Node(op, name, operands, results, rule, category, elementwise) and
            # Graph.add_node, without repeating per op what the fragment knows.
            index = len(nodes)
            node = new_node(Node)
            node.op = op
            node.name = name
            node.operands = operands
            node.results = results
            node.slots = slots = operands + results
            node.rule = fragment.rule
            node.category = fragment.category
            node.elementwise = fragment.elementwise
            node.allowed = both
            node.views = _NO_VIEWS
            node.pass_through = fragment.pass_through
            node.key = fragment.key
            node.inert = inert = fragment.inert
            nodes.append(node)
            if -1 in slots:
                irregular.append(index)
            if not inert:  # (an inert node is never visited: no neighbour queues it)
                for slot in slots:
                    if slot >= 0:
                        slot_nodes[slot].append(index)
        # The regions of other ops (reduce, sort, scatter bodies...) are scalar
        # computations applied per element, not data flow between program values.
        result_writes.append((op, results))
    if block_ops is not None and (first[0] != block.operations[0].operation
                                  or op != block.operations[count - 1].operation):
        raise _OpsMismatch()
    return op


def _result_slots(g: Graph, values) -> tuple[list[int], tuple[int, ...]]:
    """The slots and type ids of an op's results (what _build_block does for one)."""
    results, result_types = [], []
    for value in values:
        type_id, shape = g.type_of(value.type)
        result_types.append(type_id)
        if g.grouped and value in g.value_slot:
            results.append(g.value_slot[value])
            continue
        slot = -1 if shape is None else g.new_slot(shape, None, type_id)
        g.value_slot[value] = slot
        results.append(slot)
    return results, tuple(result_types)


def _seed_from_attr(g: Graph, op: ir.Operation, attrs, slots: list[int]) -> None:
    per_value = sdy.TensorShardingPerValueAttr(attrs[SHARDING_ATTR]).shardings
    for slot, attr in zip(slots, per_value):
        g.seed(slot, g.codec.decode(attr, op.location, g.shapes[slot] if slot >= 0 else None),
               op.location)


def _identity_edge(g: Graph, op, sources: list[int], target: int, name: str,
                   views: dict | None = None) -> None:
    if target < 0:
        return
    if name != "sdy.sharding_constraint":
        g.edge_targets.add(target)
    shape = g.shapes[target]
    g.add_node(Node(op, name, sources, [target], identity_rule(len(shape), len(sources), shape),
                    "pass_through", elementwise=True, views=views))


def _region_terminator_operands(region: ir.Region) -> list[ir.Value]:
    block = region.blocks[0]
    return list(block.operations[len(block.operations) - 1].operands)


def _build_while(g: Graph, op: ir.Operation) -> None:
    results = _seed_results(g, op)
    cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
    for i, slot in enumerate(results):
        g.alias([cond.arguments[i], body.arguments[i]], slot)
    _build_block(g, cond)
    _build_block(g, body)
    yielded = _region_terminator_operands(op.regions[1])
    for i, slot in enumerate(results):
        _identity_edge(g, op, [g.slot(op.operands[i]), g.slot(yielded[i])], slot,
                       "data_flow_edge")
    g.writers.append(lambda w: write_results(w, op, results))


def _build_branches(g: Graph, op: ir.Operation) -> None:
    """stablehlo.case / stablehlo.if: each result is fed by every branch's return."""
    results = _seed_results(g, op)
    for operand in op.operands:
        g.slot(operand)
    returned = []
    for region in op.regions:
        _build_block(g, region.blocks[0])
        returned.append(_region_terminator_operands(region))
    for i, slot in enumerate(results):
        _identity_edge(g, op, [g.slot(r[i]) for r in returned], slot, "data_flow_edge")
    g.writers.append(lambda w: write_results(w, op, results))


def _build_optimization_barrier(g: Graph, op: ir.Operation) -> None:
    results = _seed_results(g, op)
    for operand, slot in zip(op.operands, results):
        _identity_edge(g, op, [g.slot(operand)], slot, "data_flow_edge")
    g.writers.append(lambda w: write_results(w, op, results))


def _build_call(g: Graph, op: ir.Operation) -> None:
    """After call-graph flattening every callee has this one call site: its arguments
    and returns are tied to the call's operands and results by edges."""
    results = _seed_results(g, op)
    name = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
    callee = _lookup_func(g, name)
    operands = [g.slot(v) for v in op.operands]
    if callee is not None and len(callee.regions[0].blocks):
        body = callee.regions[0].blocks[0]
        for arg, source in zip(body.arguments, operands):
            _identity_edge(g, op, [source], g.slot(arg), "call_edge")
        g.pending_calls.append((callee, op, results, name, len(g.nodes)))
    g.writers.append(lambda w: write_results(w, op, results))


def _lookup_func(g: Graph, name: str):
    funcs = getattr(g, "_funcs", None)
    if funcs is None:
        funcs = g._funcs = {ir.StringAttr(op.attributes["sym_name"]).value: op
                            for op in g.module.regions[0].blocks[0].operations
                            if op.operation.name == "func.func"}
    return funcs.get(name)


def _build_constraint(g: Graph, op: ir.Operation) -> None:
    """sharding_constraint: identity from operand to result; the result holds the
    constraint (its sharding attribute is the result's sharding)."""
    result = g.slot(op.results[0])
    sharding = g.codec.decode(op.attributes["sharding"], op.location,
                              g.shapes[result] if result >= 0 else None)
    g.seed(result, sharding, op.location)
    g.constraint_uses.setdefault(op.operands[0], []).append(sharding)
    _identity_edge(g, op, [g.slot(op.operands[0])], result, "sdy.sharding_constraint")
    g.writers.append(lambda w: write_sharding_attr(w, op, result))


def _build_reshard(g: Graph, op: ir.Operation) -> None:
    """reshard: an explicit layout change; nothing flows across it."""
    g.slot(op.operands[0])
    result = g.slot(op.results[0])
    g.seed(result, g.codec.decode(op.attributes["sharding"], op.location), op.location)
    g.writers.append(lambda w: write_sharding_attr(w, op, result))


def _build_barrier(g: Graph, op: ir.Operation) -> None:
    result = g.slot(op.results[0])
    allowed = Direction(ir.IntegerAttr(op.attributes["allowed_direction"]).value)
    shape = g.shapes[result]
    if result >= 0:
        g.add_node(Node(op, op.name, [g.slot(op.operands[0])], [result],
                        identity_rule(len(shape), 1, shape), "barrier", elementwise=True,
                        allowed=allowed))
    g.writers.append(lambda w: write_results(w, op, [result]))


def _build_data_flow_edge(g: Graph, op: ir.Operation) -> None:
    """sdy.data_flow_edge, as Shardy's import writes them: its result is its operand (a
    region op's result or block argument: the edge's target) under another name, and its
    `sharding` is the target's. One slot for both, seeded from the edge (which speaks
    for the target over what its owner says: a manual computation's in_shardings are
    only sunk from the edges later); written back to the edge and, as everywhere, to
    the target's owner."""
    slot = g.slot(op.operands[0])
    g.alias([op.results[0]], slot)
    if "sharding" in op.attributes and slot >= 0:
        g.shardings[slot] = g.intern(g.codec.decode(op.attributes["sharding"], op.location,
                                                    g.shapes[slot]))
    g.writers.append(lambda w: write_sharding_attr(w, op, slot))


def _build_group(g: Graph, op: ir.Operation) -> None:
    g.slot(op.operands[0])  # already aliased with the other members


def _build_named(g: Graph, op: ir.Operation) -> None:
    """Transparent, except that `in_shardings` / `out_shardings`, where given, fix the
    shardings of the body's arguments and of the results (its boundary, where values
    may change meshes: shardpy-insert-reshards inlines it with reshards there)."""
    attrs = op.attributes
    results = _seed_results(g, op)
    if "out_shardings" in attrs and SHARDING_ATTR not in attrs:
        outs = sdy.TensorShardingPerValueAttr(attrs["out_shardings"]).shardings
        for slot, attr in zip(results, outs):
            g.seed(slot, g.codec.decode(attr, op.location), op.location)
    body = op.regions[0].blocks[0]
    if "in_shardings" in attrs:
        ins = sdy.TensorShardingPerValueAttr(attrs["in_shardings"]).shardings
        for arg, attr in zip(body.arguments, ins):
            g.seed(g.slot(arg), g.codec.decode(attr, op.location), op.location)
    for arg, operand in zip(body.arguments, op.operands):
        _identity_edge(g, op, [g.slot(operand)], g.slot(arg), "data_flow_edge")
    _build_block(g, body)
    for value, slot in zip(_region_terminator_operands(op.regions[0]), results):
        _identity_edge(g, op, [g.slot(value)], slot, "data_flow_edge")
    g.writers.append(lambda w: write_results(w, op, results))


def _build_manual(g: Graph, op: ir.Operation) -> None:
    """Free axes flow through a manual computation, manual axes never do.

    Each operand sharding (in_shardings[i], global, with manual axes) gets its own slot,
    fed by the operand; the body argument sees it without the manual axes. Results
    (out_shardings, global) are fed by the body's returns the same way.
    """
    manual_attr = sdy.ManualAxesAttr(op.attributes["manual_axes"])
    manual = frozenset(manual_attr[i] for i in range(len(manual_attr)))
    ins = sdy.TensorShardingPerValueAttr(op.attributes["in_shardings"]).shardings
    outs = sdy.TensorShardingPerValueAttr(op.attributes["out_shardings"]).shardings
    body = op.regions[0].blocks[0]
    in_slots = []
    for operand, arg, attr in zip(op.operands, body.arguments, ins):
        sharding = g.codec.decode(attr, op.location)
        g.constraint_uses.setdefault(operand, []).append(sharding)
        in_slot = g.new_slot(shape_of(operand.type), sharding)
        in_slots.append(in_slot)
        _identity_edge(g, op, [g.slot(operand)], in_slot, "data_flow_edge")
        arg_slot = g.slot(arg)
        g.seed(arg_slot, strip_axes(sharding, manual), op.location)
        _identity_edge(g, op, [in_slot], arg_slot, "manual_edge", views={0: manual})
    results = [g.slot(r) for r in op.results]
    for slot, attr in zip(results, outs):
        g.seed(slot, g.codec.decode(attr, op.location), op.location)
    _build_block(g, body)
    for value, slot in zip(_region_terminator_operands(op.regions[0]), results):
        # Tensor 1 (the result) is read through the view: the edge works in local terms.
        _identity_edge(g, op, [g.slot(value)], slot, "manual_edge", views={1: manual})
    # Where the input has sdy.data_flow_edges (Shardy's import), they hold the shardings
    # of the body arguments and results, and in/out_shardings stay as given until they
    # are sunk (partition/regions.sink_data_flow_edges), as in Shardy.
    kept_in = [i for i, arg in enumerate(body.arguments) if _has_edge(arg)]
    kept_out = [i for i, result in enumerate(op.results) if _has_edge(result)]
    in_written = [-1 if i in kept_in else s for i, s in enumerate(in_slots)]
    out_written = [-1 if i in kept_out else s for i, s in enumerate(results)]
    g.writers.append(lambda w: write_manual(w, op, in_written, out_written, manual))


def _has_edge(value: ir.Value) -> bool:
    return any(use.owner.name == "sdy.data_flow_edge" for use in value.uses)


def _build_sdy_collective(g: Graph, op: ir.Operation) -> None:
    """Explicit sdy collectives fix their result sharding (like reshard)."""
    results = [g.slot(r) for r in op.results]
    for operand in op.operands:
        g.slot(operand)
    if "out_sharding" in op.attributes and results and results[0] >= 0:
        g.seed(results[0], g.codec.decode(op.attributes["out_sharding"], op.location),
               op.location)
    for region in op.regions:
        for block in region.blocks:
            _build_block(g, block)


# What the graph builder does at each kind of structural op (the registry's Flow.kind;
# func.func is walked as a function, never dispatched on), and the same by op name for
# the per-op dispatch.
_STRUCTURAL_BY_KIND: dict[str, Callable[[Graph, ir.Operation], None]] = {
    FUNCTION_RETURN: lambda g, op: None,
    REGION_RETURN: lambda g, op: None,
    SYMBOL: lambda g, op: None,
    LOOP: _build_while,
    BRANCHES: _build_branches,
    CARRY: _build_optimization_barrier,
    CALL: _build_call,
    CONSTRAINT: _build_constraint,
    RESHARD: _build_reshard,
    PROPAGATION_BARRIER: _build_barrier,
    GROUP: _build_group,
    EDGE: _build_data_flow_edge,
    NAMED: _build_named,
    MANUAL: _build_manual,
}
_STRUCTURAL = by_flow_kind(_STRUCTURAL_BY_KIND)


def op_kind(g: Graph, name: str) -> int:
    """How _build_block treats ops named `name` (a rule_cache category), cached per name."""
    kind = g.rules.op_kinds.get(name)
    if kind is None:
        if name in _STRUCTURAL:
            kind = _STRUCTURE
        elif name.startswith("sdy.") and name != "sdy.constant":
            kind = _SDY_OP
        else:
            kind = g.rules.rule_kind(name)
        g.rules.op_kinds[name] = kind
    return kind


def descended(name: str) -> bool:
    """Does the graph builder build the regions of ops named `name`?"""
    return (name == "func.func" or name in _STRUCTURAL
            or (name.startswith("sdy.") and name != "sdy.constant"))
