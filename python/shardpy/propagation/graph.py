"""The graph propagation runs on: the module decoded once into plain Python objects.

  * slots: one per value (or per group of values that must share one sharding: while
    results with their body/cond block arguments, members of a sharding group), plus one
    per func result and per manual_computation operand sharding; each holds a sharding
    (or None) during propagation;
  * nodes: an op with a sharding rule, or a data-flow edge (identity between the
    sources of a loop/branch/call/barrier value and its target slot).

build.py fills a Graph from a module; propagate.py, unreduced.py and write_back.py read
and update its shardings. Shardings are interned (Graph.intern), so identity is equality.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from jaxlib.mlir import ir

from ..ir.diagnostics import ShardpyError
from ..sharding.factors import Direction
from ..sharding.model import DimSharding, TensorSharding
from ..sharding.op_rule import FactorKind, OpRule, RuleTable
from ..sharding.sdy_codec import ShardingCodec, module_meshes
from .rule_cache import RuleCache
from .speed import _NO_VIEWS
from .strategies import pass_through_factors


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
        self.inert = False  # see rule_cache.Fragment


@lru_cache(maxsize=None)
def identity_rule(rank: int, num_operands: int, shape: tuple[int, ...]) -> OpRule:
    dims = tuple((d,) for d in range(rank))
    return OpRule(tuple(shape), (dims,) * num_operands, (dims,),
                  (FactorKind.PASS_THROUGH,) * rank)


@dataclass
class FuncLink:
    """A func result attribute slot and the slot of the value its return op returns."""

    returned: int
    result: int


class Graph:
    """The slots and nodes of one module, with what building and writing back keep
    about its ops."""

    def __init__(self, module: ir.Operation, table: RuleTable):
        self.module = module
        self.rules = RuleCache(table)
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
        #   sharding constraints and manual computations want (see build.apply_constraints)
        self.edge_targets: set[int] = set()  # slots fed by data-flow edges
        self.func_links: list[FuncLink] = []
        self.writers: list[Callable] = []  # write-back actions (given a write_back.Writer)
        self.result_writes: list[tuple[ir.Operation, list[int]]] = []  # ops with rules
        self.missing_rules: dict[str, ir.Location] = {}
        # (callee, call op, result slots, callee name, node index after the argument
        # edges): the result edges are added last
        self.pending_calls: list = []
        # func name -> (first node, end node, first call, end call in pending_calls)
        self.func_nodes: dict[str, tuple[int, int, int, int]] = {}
        # ir.Type -> (a small int naming it, its shape or None where not a ranked tensor)
        self.type_info: dict[ir.Type, tuple[int, tuple[int, ...] | None]] = {}
        self._interned: dict[TensorSharding, TensorSharding] = {}
        self._producers: dict[int, Node] | None = None
        self.block_ops = None  # where _build_block takes ops from (a build._BlockOps)
        # The constant-like ops built (see prescan.split_constants): (op, result, has a
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
        """Give a slot its user sharding; a second, different one is an error, unless
        one of the two says nothing (open and empty everywhere: it takes the other, as
        Shardy's sharding-group sync does; real conflicts in groups were settled before,
        see groups.py)."""
        if slot < 0:
            return
        old = self.shardings[slot]
        if old is not None and old != sharding:
            if says_nothing(sharding):
                return
            if says_nothing(old):
                self.shardings[slot] = self.intern(sharding)
                return
            raise ShardpyError(
                f"values that must share one sharding have different shardings: {old} and "
                f"{sharding}", loc)
        self.shardings[slot] = self.intern(sharding)

    def add_node(self, node: Node) -> None:
        if not node.pass_through:
            pass_through = self.rules.pass_through.get(id(node.rule))
            node.pass_through = (pass_through if pass_through is not None
                                 else pass_through_factors(node.rule))
        node_keys = self.rules.node_keys
        node.key = node_keys.setdefault(node.key, len(node_keys))
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

    def reorder(self, order: list[int]) -> None:
        """Renumber the nodes: node `order[k]` becomes node k (`order` is a permutation).
        The worklist visits nodes in index order (propagate.Propagator)."""
        if order == list(range(len(self.nodes))):
            return
        new_index = [0] * len(order)
        for k, old in enumerate(order):
            new_index[old] = k
        self.nodes = [self.nodes[old] for old in order]
        self.slot_nodes = [sorted(new_index[i] for i in nodes) if nodes else nodes
                           for nodes in self.slot_nodes]
        self.irregular = sorted(new_index[i] for i in self.irregular)
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


def says_nothing(sharding: TensorSharding) -> bool:
    """Open and empty on every dim, no replicated or unreduced axes: a sharding that
    constrains nothing (Shardy's "fully open and replicated")."""
    return not sharding.unreduced and not sharding.replicated and all(
        not d.axes and not d.closed for d in sharding.dims)


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


def common_mesh(shardings: list) -> TensorSharding | None:
    """A sharding whose mesh all given shardings share, or None (no sharding at all, or
    different meshes: nothing flows between meshes; or a maximal mesh: a value on one
    device gives its layout to nothing, as in Shardy).

    As in Shardy, meshes are the same when their axes and device orders are (whatever
    their names: the first one found names the mesh of values that had none), and a
    sharding on the empty mesh (`<[]>`, no axes) fits any mesh: its value takes the
    op's mesh when propagation reaches it (factors.unproject)."""
    found = None
    for s in shardings:
        if s is None or s.mesh.is_empty:
            continue
        if found is None:
            found = s
        elif s.mesh is not found.mesh and s.mesh != found.mesh:
            return None
    if found is not None and found.mesh.is_maximal:
        return None
    return found

