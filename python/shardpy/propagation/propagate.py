"""shardpy-propagate's algorithm: every value of a module gets a sharding, with the
conflict-resolution hierarchy Shardy documents.

propagate_module, step by step (Shardy's import's, then its propagation's):
  1. (maximal shardings stay: values on a maximal mesh take no part; see
     graph.common_mesh);
  2. prescan (prescan.py): flatten the call graph, so every call site has its own
     callee; give sharding groups whose members conflict open constraints (groups.py);
     and split constants, so every use of a constant expression has its own copy;
  3. build the graph (build.py, graph.py): slots (values that share one sharding) and
     nodes (ops with a sharding rule, identity edges for data flow);
  4. propagate: a worklist runs the factor strategies (strategies.py) on nodes until nothing changes,
     level by level of the hierarchy
         user priorities (p0, p1, ...)  >  op priorities (Shardy's schedule: pass-through
         ops none of whose operands has other uses, then all pass-through ops, then all
         ops along pass-through factors with broadcasts only backwards, then all ops
         with broadcasts only backwards, then everything)  >
         aggressive (conflicts between factors resolved)  >  basic (only what all
         tensors agree on)
     (Propagator, below; the per-op step is strategies.py);
  5. infer unreduced values (unreduced.py);
  6. write the shardings back once, as Shardy writes them (write_back.py).

Speed (bench/README.md, "Timing"): node visits are memoized per (rule, level,
shardings), shardings being interned so that identity is equality; the worklist skips
nodes whose visit is known to change nothing (speed.NodeMasks); rules are shared per op
signature (rule_cache.py).
"""
from __future__ import annotations

import enum
from itertools import compress
from typing import Callable, Iterable

from jaxlib.mlir import ir

from .. import explain
from ..ir.diagnostics import warning
from ..sharding.factors import Direction, project, unproject
from ..sharding.model import DimSharding, TensorSharding
from ..sharding.op_rule import RuleTable
from ..sharding.state import add_axes_back
from .build import build_graph
from .groups import reconcile_sharding_groups
from .graph import Graph, Node, common_mesh, identity_rule, strip_axes
from .prescan import (Prescan, constants_shared, flatten_call_graph, fold_tuple_reads,
                      split_constants)
from .speed import LEVEL_FREE, NodeMasks, cyclic_gc_paused
from .strategies import STRATEGIES
from .unreduced import infer_unreduced
from .write_back import write_back


# Shardy's op-priority schedule: see Propagator._unblocked_direction_fn.
OP_PRIORITY_LEVELS = 5


class Strategy(enum.Enum):
    BASIC = "basic"
    AGGRESSIVE = "aggressive"
    OP_PRIORITY = "op-priority"
    USER_PRIORITY = "user-priority"


def propagate_module(module: ir.Operation, table: RuleTable,
                     strategy: Strategy = Strategy.USER_PRIORITY, close: bool = True,
                     warn_missing_rules: bool = True,
                     ruleless_by_design: frozenset[str] = frozenset()) -> Propagator:
    """Propagate shardings through `module` in place.

    Ops in `ruleless_by_design` (constants, token ops...) have no rule on purpose and get
    no warning."""
    # (The steps in a function of their own: what only they hold, e.g. the prescans, is
    # freed before the collector runs again.)
    with cyclic_gc_paused():
        return _propagate_module(module, table, strategy, close, warn_missing_rules,
                                 ruleless_by_design)


def _propagate_module(module: ir.Operation, table: RuleTable, strategy: Strategy, close: bool,
                      warn_missing_rules: bool, ruleless_by_design: frozenset[str]
                      ) -> Propagator:
    """The steps of the module docstring, 1 to 6."""
    # 2. Prescan, flatten the call graph and, with sharding groups, split constants.
    scan = Prescan(module, record_ops=True)
    if scan.tuple_reads and fold_tuple_reads(scan.tuple_reads):
        scan = Prescan(module, record_ops=True)
    if flatten_call_graph(module, scan.calls):
        scan = Prescan(module, record_ops=True)  # the cloned callees hold ops of their own
    if scan.groups and reconcile_sharding_groups(module, scan.groups):
        scan = Prescan(module, record_ops=True)  # the groups hold new constraints
    if scan.groups and split_constants(module, scan.constants):
        scan = Prescan(module, record_ops=True)  # the copies are ops to build too
    # 3. Build the graph.
    g = build_graph(module, table, scan.groups, scan.recorded())
    if not scan.groups:
        # Building classified the constant-like ops it met: split constants (and
        # build again) only if one of them has several uses, as split_constants would.
        shared = constants_shared(g, scan.nested_constants)
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
    # 4. to 6.: propagate, infer unreduced values, write the shardings back.
    propagator = Propagator(g, strategy)
    recorder = explain.current()
    if recorder is not None:  # --explain: who set each sharding, and which conflicts
        initial = list(g.shardings)
        propagator.trace = {}
        propagator.conflicts = {}
        propagator._memo = _NoMemo()  # (every visit computed, so each one is seen)
    propagator.run()
    if recorder is not None:
        label = propagator.level_label
        recorder.note_propagation(
            g, {slot: (node, label(level, p), now, before)
                for slot, (node, level, p, now, before) in propagator.trace.items()},
            initial,
            {index: [(label(level, p), text) for level, p, text in found]
             for index, found in propagator.conflicts.items()})
    infer_unreduced(g)
    write_back(g, close)
    return propagator


class Propagator:
    """Runs the conflict-resolution hierarchy over a built graph."""

    def __init__(self, graph: Graph, strategy: Strategy = Strategy.USER_PRIORITY):
        self.g = graph
        self.strategy = strategy
        factor_strategy = "basic" if strategy is Strategy.BASIC else "aggressive"
        self.propagate_factors = STRATEGIES[factor_strategy]
        self.steps = 0  # node visits, for statistics
        # (node key, level, ids of the shardings) -> the visit's updates: the same
        # situations recur across nodes of one signature and across levels.
        self._memo: dict = {}
        # Per node: its last visit changed nothing and none of its slots changed since.
        self._settled: bytearray | None = None
        self._masks: NodeMasks | None = None  # built for the graph's nodes on first use
        self._func_result_nodes: list[Node] | None = None
        self._func_result_seen: list = []  # per func result node: a state it left as is
        # --explain only: slot -> (node index, level, user priority) of the visit that
        # last changed it (None: not recorded, the hot loop's only extra test).
        self.trace: dict | None = None
        self.conflicts: dict | None = None  # node index -> [(level, priority, text)]
        self._node_index: dict | None = None
        self._priority = 0

    def level_label(self, level: int | None, priority: int) -> str:
        """How the hierarchy calls the level a visit ran at."""
        where = (f"{self.strategy.value}" if level is None
                 else f"op priority {level}")
        return f"user priority p{priority}, {where}" if \
            self.strategy is Strategy.USER_PRIORITY else where

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
            self._priority = priority
            for slot, original in originals.items():
                current = g.shardings[slot]
                g.shardings[slot] = g.intern(_restore_priority(current, original, priority))
            self._run_op_priorities()

    def _run_op_priorities(self) -> None:
        self._settled = None  # shardings were just set from outside the worklist
        for level in range(OP_PRIORITY_LEVELS):
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
        masks = self._masks
        if masks is None or len(masks.plain) != n:
            masks = self._masks = NodeMasks(
                nodes, g.irregular, self._shared_operands() if level is not None else None)
        if self._settled is None or len(self._settled) != n:
            self._settled = bytearray(n)
        settled, level_free, plain = self._settled, masks.level_free, masks.plain
        # A stack (last in, first out) that starts with the nodes in program order (a
        # callee's at its call site: build._inlined_order), like MLIR's greedy driver in
        # top-down mode; a node already queued keeps its place.
        # Nodes that move nothing at this level are left out (masks.in_worklist).
        held = masks.in_worklist(level)  # (bytes of 0 or 1)
        # At level 0 only pass-through (and forward-only) ops with unshared operands move
        # anything: the others are skipped when popped (and not pushed to begin with).
        idle = masks.idle0 if level == 0 else None
        # Settled level-free nodes are held in their place but not visited while settled
        # (masks.in_worklist): their visit would change nothing.
        skip = level_free
        queued = list(held)
        stack = list(compress(range(n - 1, -1, -1), reversed(held)))
        pop, push = stack.pop, stack.append
        sharding_of = shardings.__getitem__
        steps = 0
        while stack:
            index = pop()
            queued[index] = False
            if idle is not None and idle[index]:
                continue
            if settled[index] and skip[index]:
                continue
            node = nodes[index]
            if not plain[index]:
                changed = self._visit(node, level)
                if self.trace is not None:
                    self._note_writes(changed, index, level)
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
                if changed and self.trace is not None:
                    self._note_writes(changed, index, level)
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

    def _shared_operands(self) -> bytes:
        """Per node, 1 for a pass-through or forward-only op with an operand (not a
        scalar) that has other uses: Shardy's op-priority schedule defers those to its
        second level, since moving a sharding into (or out of) such an op would fight
        the operand's other uses. Uses are counted over the graph: op and edge operands
        and values returned from functions. Data-flow edges themselves are not deferred
        (Shardy's edge ops own their one operand)."""
        g = self.g
        uses = [0] * len(g.shardings)
        for node in g.nodes:
            for slot in node.operands:
                if slot >= 0:
                    uses[slot] += 1
        for link in g.func_links:
            if link.returned >= 0:
                uses[link.returned] += 1
        shapes = g.shapes
        return bytes(
            node.op is not None and node.category in ("pass_through", "forward")
            and not node.name.endswith("edge")
            and any(slot >= 0 and uses[slot] > 1 and shapes[slot] for slot in node.operands)
            for node in g.nodes)

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
        # Levels 0 and 1 differ only in which nodes run (NodeMasks.idle0).
        base = {"pass_through": Direction.BOTH, "forward": Direction.FORWARD}.get(
            node.category, Direction.NONE)
        if level <= 1:
            return lambda f: base
        backward_only = node.category == "broadcast"
        if level == 2:
            def direction(f: int) -> Direction:
                if not node.pass_through[f]:
                    return base
                return base | (Direction.BACKWARD if backward_only else Direction.BOTH)

            return direction
        if level == 3 and backward_only:
            return lambda f: Direction.BACKWARD
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
        template = common_mesh(current)
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
        before = _factor_axes(tensors) if self.conflicts is not None else None
        changed = self.propagate_factors(tensors, len(node.operands), rule,
                                         self._direction_fn(node, level), sizes,
                                         node.elementwise)
        if before is not None:
            self._note_conflicts(node, level, before, _factor_axes(tensors),
                                 len(node.operands))
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

    def _note_writes(self, slots, index: int, level) -> None:
        """--explain: `slots` were just changed by node `index`'s visit at `level`: per
        slot (node, level, priority, its sharding now, its sharding before this visit
        or None where the annotation it started from)."""
        shardings, trace = self.g.shardings, self.trace
        for slot in slots:
            before = trace.get(slot)
            trace[slot] = (index, level, self._priority, shardings[slot],
                           before[3] if before is not None else None)

    def _note_conflicts(self, node: Node, level, before, after, num_operands: int) -> None:
        """--explain: the factors on which `node`'s tensors disagreed before this visit
        (two or more different non-empty axis lists), with what the strategy kept."""
        if self._node_index is None:
            self._node_index = {id(n): i for i, n in enumerate(self.g.nodes)}
        index = self._node_index.get(id(node))
        if index is None:
            return
        mappings = node.rule.operands + node.rule.results

        def side(t: int, factor: int | None = None) -> str:
            name = f"operand {t}" if t < num_operands else f"result {t - num_operands}"
            if factor is None:
                return name
            dims = [d for d, fs in enumerate(mappings[t]) if factor in fs]
            return f"{name} dim {dims[0]}" if dims else name

        found = self.conflicts.setdefault(index, [])
        # One axis on different factors of different tensors (two dims want it).
        homes: dict = {}
        for factor, per_tensor in before.items():
            for t, axes in per_tensor.items():
                for axis in axes:
                    homes.setdefault(axis, {}).setdefault(factor, []).append(t)
        for axis, factors in homes.items():
            if len(factors) < 2:
                continue
            where_now = sorted({f for f, per in after.items()
                                for t, axes in per.items()
                                if axis in axes and t >= num_operands})
            entry = (level, self._priority,
                     f"axis {axis} wanted on " + " and on ".join(
                         ", ".join(side(t, f) for t in ts)
                         for f, ts in sorted(factors.items()))
                     + "; the result keeps it on "
                     + (", ".join(side(num_operands, f) for f in where_now) or "neither"))
            if all(e[2] != entry[2] for e in found):
                found.append(entry)
        for factor, per_tensor in before.items():
            wanted = {axes for axes in per_tensor.values() if axes}
            if len(wanted) < 2:
                continue
            kept = sorted({axes for t, axes in after.get(factor, {}).items()
                           if t >= num_operands}, key=str)
            sides = ", ".join(f"{side(t, factor)} {{{', '.join(map(str, axes))}}}"
                              for t, axes in per_tensor.items() if axes)
            text = (f"{sides}; the result keeps "
                    + (" / ".join("{" + ", ".join(map(str, a)) + "}" for a in kept)
                       or "none"))
            entry = (level, self._priority, text)
            if all(e[2] != text for e in found):
                found.append(entry)

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
            if changed and self.trace is not None:  # (func result k: node -1 - k)
                self._note_writes(changed, -1 - k, None)
            if changed:
                self._unsettle(changed)
            else:
                seen[k] = state

class _NoMemo(dict):
    """A visit memo that remembers nothing (--explain: each visit's conflicts are
    recorded for its own node, not only for the first node of its kind)."""

    def __setitem__(self, key, value) -> None:
        pass


def _factor_axes(tensors) -> dict:
    """factor -> {tensor index: its axes on that factor} (tensors with the factor)."""
    out: dict = {}
    for t, tensor in enumerate(tensors):
        if tensor is None:
            continue
        for factor, fs in tensor.factors.items():
            out.setdefault(factor, {})[t] = tuple(fs.axes)
    return out


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
