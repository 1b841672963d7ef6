"""Sharding propagation over a whole module (the engine behind `shardpy-propagate`).

The module is decoded once into a graph of plain Python objects:
  * slots: one per value (or per group of values that must share one sharding: while
    results with their body/cond block arguments, members of a sharding group), plus one
    per func result and per manual_computation operand sharding;
  * nodes: an op with a sharding rule, or a data-flow edge (identity between the
    sources of a loop/branch/call/barrier value and its target slot).
A worklist then runs `factor_propagation` on nodes until nothing changes, with the
conflict-resolution hierarchy Shardy documents:
    user priorities (p0, p1, ...)  >  op priorities (pass-through ops, then all ops with
    pass-through factors, broadcasts only backwards, then everything)  >  aggressive
    (conflicts between factors resolved)  >  basic (only what all tensors agree on).
Shardings are written back once at the end, as Shardy writes them.

Speed (bench/README.md, "Timing"): every call into the MLIR bindings makes Python
objects, so the module is walked once (Prescan: calls, sharding groups, constant
candidates, and the ops to build in order), each op is read once while building, and
what follows from an op's rule is shared per op signature (Fragment). Node visits are
memoized per (rule, level, shardings); shardings are interned, so identity is equality.
"""
from __future__ import annotations

import enum
import gc
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress, islice
from operator import attrgetter
from typing import Callable, Iterable, Iterator

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..sharding import axis_algebra as aa
from ..ir.diagnostics import ShardpyError, warning
from ..sharding.factors import Direction, project, unproject
from .strategies import STRATEGIES, pass_through_factors
from ..ir.utils import collect_ops
from .maximal import drop_maximal_shardings
from ..sharding.op_rule import RULE_ATTR, FactorKind, OpRule, RuleTable, shape_of
from ..sharding.sdy_codec import SHARDING_ATTR, ShardingCodec, module_meshes
from ..sharding.model import AxisRef, DimSharding, TensorSharding


_MISSING = object()


class Strategy(enum.Enum):
    BASIC = "basic"
    AGGRESSIVE = "aggressive"
    OP_PRIORITY = "op-priority"
    USER_PRIORITY = "user-priority"


# Ops that only organise data flow: handled by edges, never by rules.
STRUCTURAL_OPS = frozenset({
    "func.func", "func.return", "func.call", "stablehlo.return", "sdy.return",
    "stablehlo.while", "stablehlo.case", "stablehlo.if", "stablehlo.optimization_barrier",
    "sdy.manual_computation", "sdy.named_computation", "sdy.sharding_constraint",
    "sdy.reshard", "sdy.sharding_group", "sdy.propagation_barrier", "sdy.mesh",
})
PASS_THROUGH_OPS = frozenset({"stablehlo.reshape", "stablehlo.transpose"})
FORWARD_ONLY_OPS = frozenset({"stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"})


# --------------------------------------------------------------------------- graph

_NO_VIEWS: dict = {}  # shared by every node without views (never written to)


class Node:
    """An op with a rule, or an identity edge between slots."""

    __slots__ = ("op", "name", "operands", "results", "slots", "rule", "category",
                 "elementwise", "allowed", "views", "pass_through", "key", "inert")

    def __init__(self, op, name: str, operands: list[int], results: list[int], rule: OpRule,
                 category: str, elementwise: bool = False,
                 allowed: Direction = Direction.BOTH, views: dict | None = None):
        self.op = op
        self.name = name
        self.operands = operands
        self.results = results
        self.slots = operands + results
        self.rule = rule
        self.category = category  # "pass_through" | "forward" | "broadcast" | "other"
        self.elementwise = elementwise
        self.allowed = allowed
        self.views = views or _NO_VIEWS  # tensor index -> manual axes stripped when reading it
        self.pass_through: list[bool] = []  # per factor; set by Graph.add_node
        # What a visit's outcome depends on besides the level and the shardings.
        self.key = (id(rule), category, int(allowed), elementwise)
        self.inert = False  # see Fragment


class Fragment:
    """What every op of one signature (name, types, attributes) shares in the graph."""

    __slots__ = ("rule", "category", "elementwise", "pass_through", "key", "inert")

    def __init__(self, rule: OpRule, category: str, elementwise: bool,
                 pass_through: list[bool]):
        self.rule = rule
        self.category = category
        self.elementwise = elementwise
        self.pass_through = pass_through
        self.key = (id(rule), category, int(Direction.BOTH), elementwise)
        # No factor in two tensors (e.g. a broadcast of a scalar): a visit can never
        # change anything (a tensor only takes axes another tensor has along a shared
        # factor), so the worklist never visits such a node.
        seen: set[int] = set()
        self.inert = True
        for tensor in rule.operands + rule.results:
            factors = {f for dim in tensor for f in dim}
            if factors & seen:
                self.inert = False
                break
            seen |= factors


@lru_cache(maxsize=None)
def identity_rule(rank: int, num_operands: int, shape: tuple[int, ...]) -> OpRule:
    dims = tuple((d,) for d in range(rank))
    return OpRule(tuple(shape), (dims,) * num_operands, (dims,),
                  (FactorKind.PASS_THROUGH,) * rank)


def is_pointwise(rule: OpRule) -> bool:
    tensors = rule.operands + rule.results
    first = tensors[0] if tensors else ()
    return (all(t == first for t in tensors)
            and all(k is FactorKind.PASS_THROUGH for k in rule.kinds)
            and all(len(d) == 1 for d in first))


@dataclass
class FuncLink:
    """A func result attribute slot and the slot of the value its return op returns."""

    returned: int
    result: int


# How _build_block treats an op, by name (Graph.op_kind).
_RULE_FROM_ATTRIBUTES = 0  # rule cached per (name, types, attributes)
_RULE_FROM_SHAPES = 1      # rule cached per (name, types)
_RULE_NEVER = 2            # no rule
_RULE_FROM_IR = 3          # rule built for each op (it looks at more of the IR)
_STRUCTURE = 4             # a structural op (_STRUCTURAL)
_SDY_OP = 5                # another sdy op (collectives...)
_CACHING = {"shapes": _RULE_FROM_SHAPES, "never": _RULE_NEVER, "ir": _RULE_FROM_IR}


class Graph:
    def __init__(self, module: ir.Operation, table: RuleTable):
        self.module = module
        self.table = table
        self.codec = ShardingCodec(module_meshes(module))
        self.shapes: list[tuple[int, ...]] = []
        self.type_ids: list[int | None] = []  # the value's type (see type_info), if any
        self.shardings: list[TensorSharding | None] = []
        self.slot_nodes: list[list[int]] = []
        self.nodes: list[Node] = []
        self.irregular: list[int] = []  # nodes with views or a slot that is no tensor
        self.value_slot: dict[ir.Value, int] = {}
        self.grouped = False  # any sharding group (values aliased before their ops)
        self.constraint_uses: dict[ir.Value, list] = {}  # value -> shardings its
        #   sharding constraints and manual computations want (see apply_constraints)
        self.edge_targets: set[int] = set()  # slots fed by data-flow edges
        self.func_links: list[FuncLink] = []
        self.writers: list[Callable[["Writer"], None]] = []  # write-back actions
        self.result_writes: list[tuple[ir.Operation, list[int]]] = []  # ops with rules
        self.missing_rules: dict[str, ir.Location] = {}
        self.pending_calls: list = []  # (callee, call op, result slots): edges added last
        self.op_kinds: dict[str, int] = {}  # op name -> how _build_block treats it
        # ir.Type -> (a small int naming it, its shape or None where not a ranked tensor)
        self.type_info: dict[ir.Type, tuple[int, tuple[int, ...] | None]] = {}
        self._fragments: dict = {}   # op signature -> Fragment (None: no rule)
        self._rules: dict[OpRule, OpRule] = {}
        self._pass_through: dict[int, list[bool]] = {}  # id(interned rule) -> per factor
        self._interned: dict[TensorSharding, TensorSharding] = {}
        self._producers: dict[int, Node] | None = None
        self._node_keys: dict[tuple, int] = {}  # Node.key tuple -> a small int for it
        self.block_ops: _BlockOps | None = None  # where _build_block takes ops from
        # The constant-like ops built (see split_constants): (op, result, has a
        # sharding), and their result slots; None where that could not be told apart
        # from the slots (a sharding group, an operand that is no tensor).
        self.constant_like: list[tuple[ir.Operation, ir.Value, bool]] | None = []
        self.constant_slots: set[int] = set()

    # -- slots ------------------------------------------------------------------------
    def new_slot(self, shape: tuple[int, ...], sharding: TensorSharding | None = None,
                 type_id: int | None = None) -> int:
        self.shapes.append(shape)
        self.type_ids.append(type_id)
        self.shardings.append(self.intern(sharding) if sharding is not None else None)
        self.slot_nodes.append([])
        return len(self.shapes) - 1

    def intern(self, sharding: TensorSharding) -> TensorSharding:
        return self._interned.setdefault(sharding, sharding)

    def type_of(self, value_type: ir.Type) -> tuple[int, tuple[int, ...] | None]:
        """(type id, shape) of a type: the shape of a ranked tensor type, None for other
        types; the id is a small int, equal for equal types (cheap to hash in keys)."""
        info = self.type_info.get(value_type)
        if info is None:
            shape = (tuple(value_type.shape) if isinstance(value_type, ir.RankedTensorType)
                     else None)
            info = self.type_info[value_type] = (len(self.type_info), shape)
        return info

    def slot(self, value: ir.Value) -> int:
        """The slot of `value` (-1 for values that cannot carry a sharding, e.g. tokens)."""
        slot = self.value_slot.get(value)
        if slot is None:
            type_id, shape = self.type_of(value.type)
            slot = -1 if shape is None else self.new_slot(shape, None, type_id)
            self.value_slot[value] = slot
        return slot

    def alias(self, values: Iterable[ir.Value], slot: int) -> None:
        for value in values:
            self.value_slot[value] = slot

    def seed(self, slot: int, sharding: TensorSharding, loc) -> None:
        """Give a slot its user sharding; a second, different one is an error."""
        if slot < 0:
            return
        old = self.shardings[slot]
        if old is not None and old != sharding:
            raise ShardpyError(
                f"values that must share one sharding have different shardings: {old} and "
                f"{sharding}", loc)
        self.shardings[slot] = self.intern(sharding)

    def add_node(self, node: Node) -> None:
        if not node.pass_through:
            pass_through = self._pass_through.get(id(node.rule))
            node.pass_through = (pass_through if pass_through is not None
                                 else pass_through_factors(node.rule))
        node.key = self._node_keys.setdefault(node.key, len(self._node_keys))
        index = len(self.nodes)
        self.nodes.append(node)
        if node.views or -1 in node.slots:
            self.irregular.append(index)
        slot_nodes = self.slot_nodes
        for slot in node.slots:
            # A slot twice in one node (add %x, %x) lists the node twice: harmless, the
            # worklist never queues a node twice.
            if slot >= 0:
                slot_nodes[slot].append(index)
        self._producers = None

    @property
    def producers(self) -> dict[int, Node]:
        """slot -> the op node computing it (built on first use)."""
        if self._producers is None:
            self._producers = {}
            for node in self.nodes:
                if node.op is not None and node.category != "barrier" \
                        and not node.name.endswith("edge"):
                    for slot in node.results:
                        if slot >= 0:
                            self._producers[slot] = node
        return self._producers

    def op_kind(self, name: str) -> int:
        kind = self.op_kinds.get(name)
        if kind is None:
            if name in _STRUCTURAL:
                kind = _STRUCTURE
            elif name.startswith("sdy.") and name != "sdy.constant":
                kind = _SDY_OP
            else:
                kind = _CACHING.get(self.table.caching(name), _RULE_FROM_ATTRIBUTES)
            self.op_kinds[name] = kind
        return kind

    def fragment(self, op: ir.Operation, name: str, attrs, own_rule: bool) -> Fragment | None:
        """The op's rule and what follows from it (uncached: see _build_block)."""
        if own_rule:
            rule = OpRule.from_attr(attrs[RULE_ATTR])
        else:
            rule = self.table.build(op, [shape_of(v.type) for v in op.operands],
                                    [shape_of(r.type) for r in op.results])
        if rule is None:
            return None
        rule = self._rules.setdefault(rule, rule)
        pass_through = self._pass_through.get(id(rule))
        if pass_through is None:
            pass_through = self._pass_through[id(rule)] = pass_through_factors(rule)
        pointwise = is_pointwise(rule)
        category = ("pass_through" if pointwise or name in PASS_THROUGH_OPS
                    else "forward" if name in FORWARD_ONLY_OPS
                    else "broadcast" if name == "stablehlo.broadcast_in_dim" else "other")
        fragment = Fragment(rule, category, pointwise, pass_through)
        fragment.key = self._node_keys.setdefault(fragment.key, len(self._node_keys))
        return fragment


# --------------------------------------------------------------------------- building


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
    for callee, call, results in g.pending_calls:
        returned = _region_terminator_operands(callee.regions[0])
        for value, slot in zip(returned, results):
            _identity_edge(g, call, [g.slot(value)], slot, "call_edge")
    apply_constraints(g)
    return g


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
    terminator = _build_block(g, body)  # (saves finding the block's last op again)
    for value, result_slot in zip(terminator.operands if terminator is not None else (),
                                  result_slots):
        if result_slot >= 0:
            g.func_links.append(FuncLink(g.slot(value), result_slot))
    g.writers.append(lambda w: _write_func(w, func_op, arg_slots, result_slots))


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
    op_kinds, fragments, value_slot, type_info = g.op_kinds, g._fragments, g.value_slot, \
        g.type_info
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
            kind = g.op_kind(name)
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
            fragment = g.fragment(op, name, attrs, own_rule)
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
                fragment = fragments[key] = g.fragment(op, name, attrs, own_rule)
        if fragment is None:
            if name not in g.missing_rules:
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
    g.writers.append(lambda w: _write_results(w, op, results))


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
    g.writers.append(lambda w: _write_results(w, op, results))


def _build_optimization_barrier(g: Graph, op: ir.Operation) -> None:
    results = _seed_results(g, op)
    for operand, slot in zip(op.operands, results):
        _identity_edge(g, op, [g.slot(operand)], slot, "data_flow_edge")
    g.writers.append(lambda w: _write_results(w, op, results))


def _build_call(g: Graph, op: ir.Operation) -> None:
    """After call-graph flattening every callee has this one call site: its arguments
    and returns are tied to the call's operands and results by edges."""
    results = _seed_results(g, op)
    callee = _lookup_func(g, ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
    operands = [g.slot(v) for v in op.operands]
    if callee is not None and len(callee.regions[0].blocks):
        body = callee.regions[0].blocks[0]
        for arg, source in zip(body.arguments, operands):
            _identity_edge(g, op, [source], g.slot(arg), "call_edge")
        g.pending_calls.append((callee, op, results))
    g.writers.append(lambda w: _write_results(w, op, results))


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
    g.writers.append(lambda w: _write_sharding_attr(w, op, result))


def _build_reshard(g: Graph, op: ir.Operation) -> None:
    """reshard: an explicit layout change; nothing flows across it."""
    g.slot(op.operands[0])
    result = g.slot(op.results[0])
    g.seed(result, g.codec.decode(op.attributes["sharding"], op.location), op.location)
    g.writers.append(lambda w: _write_sharding_attr(w, op, result))


def _build_barrier(g: Graph, op: ir.Operation) -> None:
    result = g.slot(op.results[0])
    allowed = Direction(ir.IntegerAttr(op.attributes["allowed_direction"]).value)
    shape = g.shapes[result]
    if result >= 0:
        g.add_node(Node(op, op.name, [g.slot(op.operands[0])], [result],
                        identity_rule(len(shape), 1, shape), "barrier", elementwise=True,
                        allowed=allowed))
    g.writers.append(lambda w: _write_results(w, op, [result]))


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
    g.writers.append(lambda w: _write_results(w, op, results))


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
    g.writers.append(lambda w: _write_manual(w, op, in_slots, results, manual))


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


_STRUCTURAL: dict[str, Callable[[Graph, ir.Operation], None]] = {
    "func.return": lambda g, op: None,
    "stablehlo.return": lambda g, op: None,
    "sdy.return": lambda g, op: None,
    "sdy.mesh": lambda g, op: None,
    "stablehlo.while": _build_while,
    "stablehlo.case": _build_branches,
    "stablehlo.if": _build_branches,
    "stablehlo.optimization_barrier": _build_optimization_barrier,
    "func.call": _build_call,
    "sdy.sharding_constraint": _build_constraint,
    "sdy.reshard": _build_reshard,
    "sdy.propagation_barrier": _build_barrier,
    "sdy.sharding_group": _build_group,
    "sdy.named_computation": _build_named,
    "sdy.manual_computation": _build_manual,
}


def strip_axes(sharding: TensorSharding, axes: frozenset[str]) -> TensorSharding:
    """The sharding without the named (manual) axes."""
    if not axes:
        return sharding
    dims = tuple(DimSharding(tuple(a for a in d.axes if a.name not in axes), d.closed,
                             d.priority) for d in sharding.dims)
    return TensorSharding(sharding.mesh, dims,
                          tuple(a for a in sharding.replicated if a.name not in axes),
                          tuple(a for a in sharding.unreduced if a.name not in axes),
                          sharding.mesh_name)


def add_axes_back(local: TensorSharding, old_global: TensorSharding | None,
                  axes: frozenset[str]) -> TensorSharding:
    """A local (view) sharding with the manual axes of `old_global` put back (major-most)."""
    if old_global is None:
        return local
    dims = []
    for local_dim, old_dim in zip(local.dims, old_global.dims):
        manual = tuple(a for a in old_dim.axes if a.name in axes)
        dims.append(DimSharding(manual + local_dim.axes, local_dim.closed, local_dim.priority))
    return TensorSharding(old_global.mesh, tuple(dims), old_global.replicated,
                          old_global.unreduced, old_global.mesh_name)


# --------------------------------------------------------------------------- call graph


# Ops that only build constant data: each use gets its own copy before propagation, so
# one constant feeding differently sharded users is not pulled between them.
CONSTANT_SOURCES = frozenset({"stablehlo.constant", "stablehlo.iota"})
CONSTANT_SHAPERS = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.reshape",
                              "stablehlo.convert", "stablehlo.transpose"})


_CONSTANT_NAMES = CONSTANT_SOURCES | CONSTANT_SHAPERS


class Prescan:
    """The ops the steps before building look for, found in one walk of the module:
    calls (flatten_call_graph), sharding groups (build_graph), constant sources and
    shapers (split_constants), each list in program order.

    With `record_ops`, also `ops` and their `names`: every op the graph builder visits, in
    the order it visits them (the ops of every func body and of the regions it descends
    into, each followed by what is nested in it), so that building reads each op's name
    once and makes no Python object per op a second time. The builder checks that the
    list matches the blocks it walks (see _BlockOps)."""

    WANTED = frozenset({"func.call", "sdy.sharding_group"}) | CONSTANT_SOURCES \
        | CONSTANT_SHAPERS

    def __init__(self, module: ir.Operation, record_ops: bool = False):
        self.calls: list[ir.Operation] = []
        self.groups: list[ir.Operation] = []
        self.constants: list[tuple[ir.Operation, str]] = []  # (op, name)
        # With record_ops: those of `constants` the builder does not visit (in regions
        # it does not descend into, e.g. a reduce body)
        self.nested_constants: list[tuple[ir.Operation, str]] = []
        self.ops: list[ir.Operation] | None = [] if record_ops else None
        self.names: list[str] | None = [] if record_ops else None  # (two lists: no
        #   tuple per op to make and free)
        wanted, calls, groups, constants = self.WANTED, self.calls, self.groups, \
            self.constants
        advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP
        pre_order = ir.WalkOrder.PRE_ORDER

        def find(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            if name in wanted:
                if name == "func.call":
                    calls.append(op)
                elif name == "sdy.sharding_group":
                    groups.append(op)
                else:
                    constants.append((op, name))
            return advance

        if not record_ops:
            module.walk(find, walk_order=pre_order)
            return
        record, record_name = self.ops.append, self.names.append
        # Per op name: None nothing to do, a list to add the op to, or `find` where it
        # has regions the builder does not descend into (asked of the first op of each
        # name; an op of that name with regions after all only makes the list disagree
        # with the blocks, which the builder notices).
        actions: dict[str, object] = {}

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            record(op)
            record_name(name)
            action = actions.get(name, _MISSING)
            if action is _MISSING:
                action = actions[name] = (
                    find if not _descended(name) and len(op.regions)
                    else calls if name == "func.call" else groups
                    if name == "sdy.sharding_group" else constants if name in wanted
                    else None)
            if action is None:
                return advance
            if action is constants:
                constants.append((op, name))
                return advance
            if action is not find:
                action.append(op)
                return advance
            found = len(constants)
            op.walk(find, walk_order=pre_order)  # e.g. a reduce and its body:
            self.nested_constants.extend(constants[found:])  # searched, not recorded
            return skip

        for top in module.regions[0].blocks[0].operations:
            top.operation.walk(visit, walk_order=pre_order)

    def recorded(self) -> Iterator[tuple[ir.Operation, str]]:
        """(op, name) of the recorded ops (see record_ops), in order."""
        return zip(self.ops, self.names)


def _descended(name: str) -> bool:
    """Does the graph builder build the regions of ops named `name`?"""
    return (name == "func.func" or name in _STRUCTURAL
            or (name.startswith("sdy.") and name != "sdy.constant"))


def split_constants(module: ir.Operation,
                    candidates: list[tuple[ir.Operation, str]] | None = None) -> bool:
    """Give every use of a constant expression its own copy (Shardy's
    constant-or-scalar splitter): constants, iotas, and broadcasts/reshapes/converts/
    transposes of constant expressions or of scalars. True if it copied any.

    `candidates`: the module's constant sources and shapers as Prescan finds them."""
    if candidates is None:
        candidates = Prescan(module).constants
    ordered = list(_constant_like(candidates, set()))
    copied = False
    for op, value in reversed(ordered):  # users first: their copies become uses of the
        if SHARDING_ATTR in op.attributes:  # producers
            continue
        uses = iter(value.uses)
        next(uses, None)  # the first use keeps the original
        others = [(use.owner, use.operand_number) for use in uses]
        for owner, index in others:
            clone = op.clone(ip=ir.InsertionPoint(op))
            owner.operands[index] = clone.results[0]
            copied = True
    return copied


def _constant_like(candidates: list[tuple[ir.Operation, str]], constant_values: set
                   ) -> Iterator[tuple[ir.Operation, ir.Value]]:
    """(op, result) of the candidates that are constant-like: sources, and shapers of
    scalars or of constant-like values (`constant_values`: those known so far; it
    grows). Candidates in program order: operands are classified before users."""
    scalar_types: dict[ir.Type, bool] = {}
    for op, name in candidates:
        if name not in CONSTANT_SOURCES:
            operands = op.operands
            if len(operands) != 1:
                continue
            operand = operands[0]
            operand_type = operand.type
            scalar = scalar_types.get(operand_type)
            if scalar is None:
                scalar = scalar_types[operand_type] = (
                    isinstance(operand_type, ir.RankedTensorType) and operand_type.rank == 0)
            # (each constant-like op has one result: its result is the operand exactly
            # when it produces the operand)
            if not scalar and operand not in constant_values:
                continue
        value = op.results[0]
        constant_values.add(value)
        yield op, value


def _constants_shared(g: Graph, nested: list[tuple[ir.Operation, str]]) -> bool | None:
    """Would split_constants copy anything? From the constant-like ops the builder
    classified, plus those nested in regions it does not build (classified here, as
    split_constants does); None where the builder could not tell."""
    if g.constant_like is None:
        return None
    found = [(op, value) for op, value, seeded in g.constant_like if not seeded]
    if nested:
        constant_values = {value for _, value, _ in g.constant_like}
        found += [(op, value) for op, value in _constant_like(nested, constant_values)
                  if SHARDING_ATTR not in op.attributes]
    for op, value in found:
        uses = iter(value.uses)
        next(uses, None)
        if next(uses, None) is not None:
            return True
    return False


def flatten_call_graph(module: ir.Operation, calls: list[ir.Operation] | None = None
                       ) -> bool:
    """Give every call site its own callee (cloned as @name_0, @name_1, ...), so a
    function called with different shardings can be sharded differently per call.
    True if it changed the module.

    One sweep per level of call nesting: clones made in a sweep hold calls of their own,
    which the next sweep sees. `calls`: the module's func.call ops as Prescan finds them
    (the first sweep needs no walk of its own).
    """
    block = module.regions[0].blocks[0]
    changed = False
    if calls is not None and not calls:
        return changed
    names = {ir.StringAttr(op.attributes["sym_name"]).value
             for op in block.operations if "sym_name" in op.attributes}
    while True:
        funcs = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                 for op in block.operations if op.operation.name == "func.func"}
        seen: set[str] = set()
        pending = []
        if calls is None:
            calls = [op for op in collect_ops(module) if op.name == "func.call"]
        for op in calls:
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            if callee not in funcs:
                continue
            if callee in seen or _is_public(funcs[callee]):
                pending.append((op, callee))  # the first private call site keeps it
            seen.add(callee)
        calls = None
        if not pending:
            return changed
        changed = True
        for op, callee in pending:
            original = funcs[callee]
            k = 0
            while f"{callee}_{k}" in names:
                k += 1
            new_name = f"{callee}_{k}"
            names.add(new_name)
            following = _next_op(block, original)
            clone = original.clone(ip=ir.InsertionPoint(following) if following is not None
                                   else ir.InsertionPoint(block))
            clone.attributes["sym_name"] = ir.StringAttr.get(new_name)
            clone.attributes["sym_visibility"] = ir.StringAttr.get("private")
            op.attributes["callee"] = ir.FlatSymbolRefAttr.get(new_name)


def _is_public(func_op: ir.Operation) -> bool:
    return ("sym_visibility" not in func_op.attributes
            or ir.StringAttr(func_op.attributes["sym_visibility"]).value == "public")


def _next_op(block: ir.Block, op: ir.Operation):
    found = False
    for candidate in block.operations:
        if found:
            return candidate.operation
        if candidate.operation == op:
            found = True
    return None


# --------------------------------------------------------------------------- running


# Node categories whose visits move the same factors the same ways at every level (all
# factors both ways, or as a propagation barrier allows).
LEVEL_FREE = frozenset({"pass_through", "barrier"})
_IDLE_AT_LEVEL_0 = ("other", "broadcast")


class Propagator:
    """Runs the conflict-resolution hierarchy over a built graph."""

    def __init__(self, graph: Graph, strategy: Strategy = Strategy.USER_PRIORITY):
        self.g = graph
        self.strategy = strategy
        factor_strategy = "basic" if strategy is Strategy.BASIC else "aggressive"
        self.propagate_factors = STRATEGIES[factor_strategy]
        self.steps = 0  # node visits, for statistics
        self._memo: dict = {}
        # Per node: its last visit changed nothing and none of its slots changed since.
        self._settled: bytearray | None = None
        # Per node, one byte each (0 or 1), built for the graph's nodes on first use:
        self._level_free: bytes | None = None  # category in LEVEL_FREE
        self._plain: bytes | None = None  # no views, every slot a tensor
        # The same as ints (byte i of the big-endian bytes is node i), so that the start
        # of each level combines them with one bitwise operation instead of one per node:
        self._level_free_bits = 0
        self._inert_bits = 0  # Node.inert: never visited
        self._idle0_bits = 0  # categories that move nothing at level 0
        self._ones_bits = 0  # every node
        self._func_result_nodes: list[Node] | None = None
        self._func_result_seen: list = []  # per func result node: a state it left as is

    # -- the hierarchy -----------------------------------------------------------------
    def run(self) -> None:
        if self.strategy is Strategy.USER_PRIORITY:
            self._run_user_priorities()
        elif self.strategy is Strategy.OP_PRIORITY:
            self._run_op_priorities()
        else:
            self._run_level(None)

    def _run_user_priorities(self) -> None:
        g = self.g
        originals: dict[int, TensorSharding] = {}
        priorities: set[int] = set()
        for slot, sharding in enumerate(g.shardings):
            if sharding is None:
                continue
            levels = {d.priority or 0 for d in sharding.dims}
            if any(d.priority is not None for d in sharding.dims):
                originals[slot] = sharding
                priorities |= {p for p in levels if p > 0}
                g.shardings[slot] = g.intern(_initial_for_priority(sharding))
        self._run_op_priorities()
        for priority in sorted(priorities):
            for slot, original in originals.items():
                current = g.shardings[slot]
                g.shardings[slot] = g.intern(_restore_priority(current, original, priority))
            self._run_op_priorities()

    def _run_op_priorities(self) -> None:
        self._settled = None  # shardings were just set from outside the worklist
        for level in range(3):
            self._run_level(level)

    def _run_level(self, level: int | None) -> None:
        self._propagate_func_results()
        self._run_worklist(level)
        self._propagate_func_results()

    # -- worklist ----------------------------------------------------------------------
    def _run_worklist(self, level: int | None) -> None:
        g = self.g
        nodes = g.nodes
        slot_nodes = g.slot_nodes
        shardings = g.shardings
        memo = self._memo
        n = len(nodes)
        if self._plain is None or len(self._plain) != n:
            # (map over C functions: no Python frame per node)
            categories = list(map(attrgetter("category"), nodes))
            self._level_free = bytes(map(LEVEL_FREE.__contains__, categories))
            plain = bytearray(b"\x01") * n
            for index in g.irregular:
                plain[index] = 0
            self._plain = bytes(plain)
            self._level_free_bits = int.from_bytes(self._level_free, "big")
            self._inert_bits = int.from_bytes(bytes(map(attrgetter("inert"), nodes)), "big")
            self._idle0_bits = int.from_bytes(
                bytes(map(_IDLE_AT_LEVEL_0.__contains__, categories)), "big")
            self._ones_bits = int.from_bytes(b"\x01" * n, "big")
        if self._settled is None or len(self._settled) != n:
            self._settled = bytearray(n)
        settled, level_free, plain = self._settled, self._level_free, self._plain
        # A stack (last in, first out) that starts with the nodes in program order, like
        # MLIR's greedy driver in top-down mode; a node already queued keeps its place.
        # Left out: nodes whose visit cannot depend on the level and that are settled
        # (their last visit changed nothing, and none of their slots changed since):
        # visiting them again would change nothing either; inert nodes (see Fragment).
        left_out = (int.from_bytes(settled, "big") & self._level_free_bits) | self._inert_bits
        # At level 0 only pass-through (and forward-only) ops move anything: the others
        # are skipped when popped, and need not be pushed to begin with.
        idle = _IDLE_AT_LEVEL_0 if level == 0 else ()
        if idle:
            left_out |= self._idle0_bits
        start = (self._ones_bits ^ left_out).to_bytes(n, "big")  # (bytes of 0 or 1)
        queued = list(start)
        stack = list(compress(range(n - 1, -1, -1), reversed(start)))
        pop, push = stack.pop, stack.append
        sharding_of = shardings.__getitem__
        steps = 0
        while stack:
            index = pop()
            queued[index] = False
            node = nodes[index]
            if node.category in idle:
                continue
            if not plain[index]:
                changed = self._visit(node, level)
            else:  # _visit, inline: the hot loop of propagation
                steps += 1
                slots = node.slots
                node_level = 0 if level_free[index] else level
                # The memo key, spelled out for the common numbers of tensors (building
                # it is much of a visit's cost): (node.key, level, *ids of the shardings)
                if len(slots) == 3:
                    a, b, c = slots
                    key = (node.key, node_level, id(shardings[a]), id(shardings[b]),
                           id(shardings[c]))
                elif len(slots) == 2:
                    a, b = slots
                    key = (node.key, node_level, id(shardings[a]), id(shardings[b]))
                else:
                    key = (node.key, node_level, *map(id, map(sharding_of, slots)))
                updates = memo.get(key)
                if updates is None:
                    updates = memo[key] = self._updates(node, level,
                                                        list(map(sharding_of, slots)))
                if not updates:
                    settled[index] = 1
                    continue
                changed = []
                for i, new in updates:
                    slot = slots[i]
                    if new is not shardings[slot]:
                        shardings[slot] = new
                        changed.append(slot)
            if not changed:
                settled[index] = 1
                continue
            for slot in changed:
                for other in slot_nodes[slot]:
                    settled[other] = 0
                    if other != index and not queued[other]:
                        queued[other] = True
                        push(other)
        self.steps += steps

    def _unsettle(self, slots: Iterable[int]) -> None:
        """Slots changed outside the worklist: their nodes must be visited again."""
        settled = self._settled
        if settled is None:
            return
        slot_nodes = self.g.slot_nodes
        for slot in slots:
            for other in slot_nodes[slot]:
                settled[other] = 0

    def _direction_fn(self, node: Node, level: int | None) -> Callable[[int], Direction]:
        blocked = node.rule.blocked
        direction = self._unblocked_direction_fn(node, level)
        if not blocked:
            return direction
        return lambda f: Direction.NONE if f in blocked else direction(f)

    def _unblocked_direction_fn(self, node: Node, level: int | None
                                ) -> Callable[[int], Direction]:
        if node.category == "barrier":
            return lambda f: node.allowed
        if level is None:
            return lambda f: Direction.BOTH
        base = {"pass_through": Direction.BOTH, "forward": Direction.FORWARD}.get(
            node.category, Direction.NONE)
        if level == 0:
            return lambda f: base
        if level == 1:
            backward_only = node.category == "broadcast"

            def direction(f: int) -> Direction:
                if not node.pass_through[f]:
                    return base
                return base | (Direction.BACKWARD if backward_only else Direction.BOTH)

            return direction
        return lambda f: Direction.BOTH

    def _visit(self, node: Node, level: int | None) -> list[int]:
        """Propagate across one node; returns the slots whose sharding changed."""
        g = self.g
        self.steps += 1
        slots = node.slots
        views = node.views
        shardings = g.shardings
        current = [shardings[s] if s >= 0 else None for s in slots]
        if views:
            current = [g.intern(strip_axes(s, views[i])) if (i in views and s is not None)
                       else s for i, s in enumerate(current)]
        # A level-free node's visit is the same at every level: one memo entry for all.
        key = (node.key, 0 if node.category in LEVEL_FREE else level, *map(id, current))
        updates = self._memo.get(key)
        if updates is None:
            updates = self._memo[key] = self._updates(node, level, current)
        changed = []
        for i, new in updates:
            slot = slots[i]
            if slot < 0:
                continue
            if i in views:
                new = g.intern(add_axes_back(new, g.shardings[slot], views[i]))
            if new is not g.shardings[slot]:
                g.shardings[slot] = new
                changed.append(slot)
        return changed

    def _updates(self, node: Node, level: int | None, current: list) -> tuple:
        """(tensor index, new sharding) pairs a visit of `node` makes from `current`."""
        template = _common_mesh(current)
        if template is None:  # nothing sharded yet, or tensors on different meshes
            return ()
        return self._compute(node, level, current, template)

    def _compute(self, node: Node, level: int | None, current: list, template: TensorSharding
                 ) -> tuple:
        g = self.g
        rule = node.rule
        sizes = template.mesh.axes
        mappings = rule.operands + rule.results
        tensors = [project(m, s, rule.factor_sizes, sizes) for m, s in zip(mappings, current)]
        changed = self.propagate_factors(tensors, len(node.operands), rule,
                                         self._direction_fn(node, level), sizes,
                                         node.elementwise)
        updates = []
        for i, flag in enumerate(changed):
            if not flag:
                continue
            old = current[i]
            new = unproject(tensors[i], mappings[i], rule.factor_sizes, old, template, sizes)
            if (old is None and not any(d.axes for d in new.dims)) or new == old:
                continue  # e.g. a strided view would be needed
            updates.append((i, g.intern(new)))
        return tuple(updates)

    def _propagate_func_results(self) -> None:
        """Func result attributes <-> the values returned (identity, both ways)."""
        if self._func_result_nodes is None:
            g = self.g
            self._func_result_nodes = [
                Node(None, "func.return", [link.returned], [link.result],
                     identity_rule(len(g.shapes[link.result]), 1, g.shapes[link.result]),
                     "pass_through", True)
                for link in g.func_links if link.returned >= 0 and link.result >= 0]
            self._func_result_seen = [None] * len(self._func_result_nodes)
        shardings = self.g.shardings
        seen = self._func_result_seen
        for k, node in enumerate(self._func_result_nodes):
            returned, result = node.slots
            state = (shardings[returned], shardings[result])
            last = seen[k]
            if last is not None and last[0] is state[0] and last[1] is state[1]:
                continue  # visited in this very state before, and nothing changed
            changed = self._visit(node, None)
            if changed:
                self._unsettle(changed)
            else:
                seen[k] = state


def _common_mesh(shardings: list) -> TensorSharding | None:
    """A sharding whose mesh all given shardings share, or None (no sharding at all, or
    different meshes: nothing flows between meshes)."""
    found = None
    for s in shardings:
        if s is None:
            continue
        if found is None:
            found = s
        elif s.mesh_name != found.mesh_name or s.mesh != found.mesh:
            return None
    return found


def _initial_for_priority(sharding: TensorSharding) -> TensorSharding:
    """Priority-0 view: dims with priority > 0 become closed and empty, their axes
    replicated until their turn."""
    dims, replicated = [], list(sharding.replicated)
    for d in sharding.dims:
        if (d.priority or 0) == 0:
            dims.append(DimSharding(d.axes, d.closed))
        else:
            replicated.extend(d.axes)
            dims.append(DimSharding((), True))
    order = {name: i for i, name in enumerate(sharding.mesh.axis_names)}
    replicated.sort(key=lambda a: (order.get(a.name, 0), a.sub or (0, 0)))
    return TensorSharding(sharding.mesh, tuple(dims), tuple(replicated), sharding.unreduced,
                          sharding.mesh_name)


def _restore_priority(current: TensorSharding, original: TensorSharding,
                      priority: int) -> TensorSharding:
    dims, restored = [], set()
    for now, orig in zip(current.dims, original.dims):
        if orig.priority == priority:
            dims.append(DimSharding(orig.axes, orig.closed))
            restored.update(orig.axes)
        else:
            dims.append(now)
    replicated = tuple(a for a in current.replicated if a not in restored)
    return TensorSharding(current.mesh, tuple(dims), replicated, current.unreduced,
                          current.mesh_name)


# --------------------------------------------------------------------------- unreduced

# Ops that only move elements: a partial (unreduced) input gives a partial output.
UNREDUCED_PRESERVING_OPS = frozenset({
    "stablehlo.transpose", "stablehlo.reshape", "stablehlo.negate", "stablehlo.copy",
    "sdy.sharding_constraint",
})


def infer_unreduced(g: Graph) -> None:
    """Let partial sums stay partial where the user asked for a partial value.

    When a value's consumer wants it `unreduced` on axes U (a sharding constraint or a
    func result with unreduced axes) and the value is produced by an op that leaves it
    partial on those axes anyway (a reduction factor sharded on them, or an op that only
    moves elements of operands already unreduced on them), the value itself becomes
    unreduced on them: no all-reduce before the consumer, as Shardy does.
    """
    wants: list[tuple[int, int]] = []  # (source slot, target slot)
    for node in g.nodes:
        if node.name == "sdy.sharding_constraint":
            wants.append((node.operands[0], node.results[0]))
    wants += [(link.returned, link.result) for link in g.func_links]
    changed = True
    while changed:
        changed = False
        for source, target in reversed(wants):
            if source < 0 or target < 0:
                continue
            wanted = g.shardings[target].unreduced if g.shardings[target] else ()
            current = g.shardings[source]
            if not wanted or current is None:
                continue
            missing = [a for a in wanted if a not in current.unreduced]
            producer = g.producers.get(source)
            if not missing or producer is None:
                continue
            partial = _partial_axes(g, producer)
            # An axis (or any part of it) already sharding a dim or replicated
            # cannot also be unreduced.
            sizes = current.mesh.axes
            taken = [r for d in current.dims for r in d.axes] + list(current.replicated)
            gained = [a for a in missing if a in partial
                      and not any(aa.conflicts(a, r, sizes) for r in taken)]
            if gained:
                order = {n: i for i, n in enumerate(current.mesh.axis_names)}
                unreduced = tuple(sorted(current.unreduced + tuple(gained),
                                         key=lambda a: (order.get(a.name, 0), a.sub or (0, 0))))
                g.shardings[source] = g.intern(TensorSharding(
                    current.mesh, current.dims, current.replicated, unreduced,
                    current.mesh_name))
                changed = True


def _partial_axes(g: Graph, node: Node) -> set[AxisRef]:
    """Axes along which `node`'s result is left partial by the op itself."""
    operand_shardings = [g.shardings[s] if s >= 0 else None for s in node.operands]
    if node.name in UNREDUCED_PRESERVING_OPS or node.elementwise and node.name in (
            "stablehlo.add", "stablehlo.subtract"):
        common = None
        for s in operand_shardings:
            axes = set(s.unreduced) if s is not None else set()
            common = axes if common is None else common & axes
        return common or set()
    reduction = [f for f, k in enumerate(node.rule.kinds) if k is FactorKind.REDUCTION]
    if not reduction:
        return set()
    template = _common_mesh(operand_shardings)
    if template is None:
        return set()
    sizes = template.mesh.axes
    axes: set[AxisRef] = set()
    for mapping, sharding in zip(node.rule.operands, operand_shardings):
        if sharding is None:
            continue
        tensor = project(mapping, sharding, node.rule.factor_sizes, sizes)
        for f in reduction:
            fs = tensor.factors.get(f)
            if fs is not None:
                axes.update(fs.axes)
    return axes


# --------------------------------------------------------------------------- write-back


def _closed(sharding: TensorSharding, close: bool) -> TensorSharding:
    if not close or all(d.closed and d.priority is None for d in sharding.dims):
        return sharding
    return TensorSharding(sharding.mesh, tuple(DimSharding(d.axes, True) for d in sharding.dims),
                          sharding.replicated, sharding.unreduced, sharding.mesh_name)


class Writer:
    """Encodes final shardings: once per distinct sharding (they are interned, so the
    object identity is the key) and once per distinct list of result shardings."""

    def __init__(self, g: Graph, close: bool):
        self.g = g
        self.close = close
        self._attrs: dict[int, ir.Attribute] = {}
        self._per_value: dict[tuple, ir.Attribute] = {}

    def attr(self, slot: int) -> ir.Attribute | None:
        if slot < 0:
            return None
        sharding = self.g.shardings[slot]
        if sharding is None:
            return None
        attr = self._attrs.get(id(sharding))
        if attr is None:
            attr = self._attrs[id(sharding)] = self.g.codec.encode(_closed(sharding, self.close))
        return attr

    def per_value(self, slots: list[int]) -> ir.Attribute | None:
        shardings = self.g.shardings
        # A value nothing reached is filled in replicated at its own rank: the rank is
        # part of the key.
        key = tuple(-1 if s < 0 else id(shardings[s]) if shardings[s] is not None
                    else -2 - len(self.g.shapes[s]) for s in slots)
        if key in self._per_value:
            return self._per_value[key]
        attrs = [self.attr(s) for s in slots]
        result = None
        if any(a is not None for a in attrs):
            template = next(shardings[s] for s, a in zip(slots, attrs) if a is not None)
            filled = []
            for slot, attr in zip(slots, attrs):
                if attr is None:  # a result nothing reached: replicated on the same mesh
                    rank = len(self.g.shapes[slot]) if slot >= 0 else 0
                    attr = self.g.codec.encode(TensorSharding.replicated_on(
                        template.mesh, rank, template.mesh_name, closed=self.close))
                filled.append(attr)
            result = sdy.TensorShardingPerValueAttr.get(filled)
        self._per_value[key] = result
        return result


def _write_results(writer: Writer, op: ir.Operation, slots: list[int]) -> None:
    attr = writer.per_value(slots)
    if attr is not None:
        op.attributes[SHARDING_ATTR] = attr


def _write_sharding_attr(writer: Writer, op: ir.Operation, slot: int) -> None:
    attr = writer.attr(slot)
    if attr is not None:
        op.attributes["sharding"] = attr


def _write_func(writer: Writer, func_op, arg_slots: list[int], result_slots: list[int]
                ) -> None:
    # (old dict, id(sharding attr)) -> the new dict: arguments mostly repeat a few dicts
    # (most of them empty), so each distinct pair is rebuilt once.
    rebuilt: dict[tuple[ir.Attribute, int], ir.Attribute] = {}
    for key, slots in (("arg_attrs", arg_slots), ("res_attrs", result_slots)):
        attrs = [writer.attr(s) for s in slots]
        if not any(a is not None for a in attrs):
            continue
        old = list(ir.ArrayAttr(func_op.attributes[key])) if key in func_op.attributes \
            else [ir.DictAttr.get({})] * len(slots)
        new = []
        for old_dict, attr in zip(old, attrs):
            if attr is None:
                new.append(old_dict)  # rebuilt from its own entries it would be the same
                continue
            entry = rebuilt.get((old_dict, id(attr)))
            if entry is None:
                entries = {a.name: a.attr for a in ir.DictAttr(old_dict)}
                entries[SHARDING_ATTR] = attr
                entry = rebuilt[(old_dict, id(attr))] = ir.DictAttr.get(entries)
            new.append(entry)
        func_op.attributes[key] = ir.ArrayAttr.get(new)


def _write_manual(writer: Writer, op: ir.Operation, in_slots: list[int], out_slots: list[int],
                  manual: frozenset[str]) -> None:
    for key, slots in (("in_shardings", in_slots), ("out_shardings", out_slots)):
        old = sdy.TensorShardingPerValueAttr(op.attributes[key]).shardings
        new = [writer.attr(s) or o for s, o in zip(slots, old)]
        op.attributes[key] = sdy.TensorShardingPerValueAttr.get(new)


def write_back(g: Graph, close: bool = True) -> None:
    writer = Writer(g, close)
    shardings = g.shardings
    one_result: dict[int, ir.Attribute] = {}  # id(sharding) -> its per-value attribute
    for op, slots in g.result_writes:
        if len(slots) == 1:  # most ops: writer.per_value(slots), cached more cheaply
            slot = slots[0]
            sharding = shardings[slot] if slot >= 0 else None
            if sharding is None:
                continue
            attr = one_result.get(id(sharding))
            if attr is None:
                attr = one_result[id(sharding)] = writer.per_value(slots)
        else:
            attr = writer.per_value(slots)
            if attr is None:
                continue
        op.attributes[SHARDING_ATTR] = attr
    for write in g.writers:
        write(writer)


def propagate_module(module: ir.Operation, table: RuleTable,
                     strategy: Strategy = Strategy.USER_PRIORITY, close: bool = True,
                     warn_missing_rules: bool = True,
                     ruleless_by_design: frozenset[str] = frozenset()) -> Propagator:
    """Propagate shardings through `module` in place.

    Ops in `ruleless_by_design` (constants, token ops...) have no rule on purpose and get
    no warning."""
    # The graph is hundreds of thousands of small objects without cycles: the cyclic
    # garbage collector would only walk them again and again while they are built.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _propagate_module(module, table, strategy, close, warn_missing_rules,
                                 ruleless_by_design)
    finally:
        if collecting:
            gc.enable()


def _propagate_module(module: ir.Operation, table: RuleTable, strategy: Strategy, close: bool,
                      warn_missing_rules: bool, ruleless_by_design: frozenset[str]
                      ) -> Propagator:
    drop_maximal_shardings(module)
    scan = Prescan(module, record_ops=True)
    if flatten_call_graph(module, scan.calls):
        scan = Prescan(module, record_ops=True)  # the cloned callees hold ops of their own
    if scan.groups and split_constants(module, scan.constants):
        scan = Prescan(module, record_ops=True)  # the copies are ops to build too
    g = build_graph(module, table, scan.groups, scan.recorded())
    if not scan.groups:
        # Building classified the constant-like ops it met: split constants (and build
        # again) only if one of them has several uses, as split_constants would.
        shared = _constants_shared(g, scan.nested_constants)
        if shared is None:
            shared = split_constants(module, scan.constants)
        elif shared:
            split_constants(module, scan.constants)
        if shared:
            scan = Prescan(module, record_ops=True)
            g = build_graph(module, table, scan.groups, scan.recorded())
    if warn_missing_rules:
        for name, loc in g.missing_rules.items():
            if name in ruleless_by_design:
                continue
            warning(loc, f"'{name}' has no sharding rule: no sharding propagates through it "
                         f"(it will be computed replicated)")
    propagator = Propagator(g, strategy)
    propagator.run()
    infer_unreduced(g)
    write_back(g, close)
    return propagator
