"""Unreduced inference after propagation (Shardy's): partial sums stay partial where
the user asked for a partial value. Which ops carry partial values through, it asks the
op registry (shardpy.ops: `unreduced_preserving`, `linear`).
"""
from __future__ import annotations

from ..ops.elementwise import elementwise
from ..ops.entry import ALL_OPERANDS
from ..ops.registry import ops_with
from ..sharding import axis_algebra as aa
from ..sharding.factors import project
from ..sharding.model import AxisRef, TensorSharding
from ..sharding.op_rule import FactorKind
from .graph import Graph, Node, common_mesh


# Ops that only move elements: a partial (unreduced) input gives a partial output.
UNREDUCED_PRESERVING_OPS = ops_with(lambda e: e.unreduced_preserving)
# Elementwise ops linear in all their operands (add, subtract): a result partial on the
# axes every operand is partial on. (The registry's ALL_OPERANDS ops but concatenate,
# which is not elementwise.)
_SUMMING = ops_with(lambda e: e.linear == ALL_OPERANDS and e.rule is elementwise)


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
            # (Only axes of the value's own mesh: a value placed on one device, a
            # maximal mesh without axes, cannot be partial along another mesh's axis.)
            names = current.mesh.axis_names
            gained = [a for a in missing if a in partial and a.name in names
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
    if node.name in UNREDUCED_PRESERVING_OPS or node.elementwise and node.name in _SUMMING:
        common = None
        for s in operand_shardings:
            axes = set(s.unreduced) if s is not None else set()
            common = axes if common is None else common & axes
        return common or set()
    reduction = [f for f, k in enumerate(node.rule.kinds) if k is FactorKind.REDUCTION]
    if not reduction:
        return set()
    template = common_mesh(operand_shardings)
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
