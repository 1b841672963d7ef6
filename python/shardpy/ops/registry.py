"""The op registry: every family module's OpFamily entries, indexed by op name, and the
tables the stages read, built from them once at import.

An entry (ops/entry.py) holds everything op-specific about a family of ops: its names,
its sharding rule and the rule's caching category, how it computes on shards (a
LocalOp: combine, permutation, lower, exchange, windowed, variant, applies, split, rule,
counted_once, whole_too, padding), its data flow if it is structural (a Flow), and its
traits (source, constant_shaper, pass_through, forward_only, unreduced_preserving,
linear, fallback_reason, sharding_attr, collective, collective_lowering, channel,
xla_folds_dynamic_slice, xla_moves_dynamic_slice, xla_splits_all_to_all). The family
modules hold their rule functions next to their entries, so one file answers everything
about a family: elementwise, shape, dot, convolution, reduce, windowed, indexing, sort,
linalg, collectives, custom_call, sources, structural.

How is gather partitioned? `family("stablehlo.gather")`, in ops/indexing.py:

    OpFamily(("stablehlo.gather",), rule=gather, xla_folds_dynamic_slice=True,
             local=LocalOp(gather_lowering.gather_combine, False,
                           gather_lowering.lower_gather, padding=pad.reads_no_padding))

  rule     gather (same file): operand, indices and result dims related through the
           dimension numbers; a collapsed (indexed) operand dim is a reduction factor
  local    computed on shards: `combine` gather_combine says a result gathered from a
           sharded collapsed dim is a partial sum (each shard reads the rows it holds,
           zeros elsewhere); `lower` lowering/indexing/gather.py's lower_gather offsets the
           indices per shard; `padding` reads_no_padding: uneven shards need no mask
  traits   to-local shields its operand from XLA:CPU's dynamic_slice folding

Queries: `family(name)` / `entry_for(op)` (one dict lookup), `ops_with(predicate)` (the
op names of the entries it holds for: each stage's op-name sets are such queries,
test/python/ops/test_registry.py lists them), `by_flow_kind(handlers)` (a stage's
structural handler table, keyed by Flow.kind, turned into one keyed by op name), and
the tables the stages import: RULES (with rule_for), WITHOUT_RULE, LOCAL_OPS (with
local_entry), SOURCE_OPS.
"""
from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir

from ..sharding.op_rule import RULE_ATTR, OpRule, RuleTable, shape_of
from . import (batch_norm, collectives, convolution, custom_call, dot, elementwise,
               indexing, linalg, reduce, shape, sort, sources, structural, windowed)
from .entry import LocalOp, OpFamily


class _MemoTable(RuleTable):
    """A RuleTable that remembers the rules of shape-only entries (elementwise ops: most
    of a model), keyed by operand and result shapes: one dict lookup per op instead of
    building the same rule again for every add of the same shape. Entries that never
    give a rule (constants...) are answered without a builder."""

    MAX_MEMO = 4096

    def __init__(self):
        super().__init__()
        self.shape_only: set = set()
        self.never: set = set()
        self.reads_ir: set = set()  # entries that look beyond the op's types/attributes
        self._memo: dict = {}

    def caching(self, name: str) -> str:
        fn = self.functions.get(name)
        if fn is None or fn in self.never:
            return "never"
        if fn in self.shape_only:
            return "shapes"
        return "ir" if fn in self.reads_ir else "attributes"

    def build(self, op, operand_shapes, result_shapes):
        fn = self.functions.get(op.name)
        if fn not in self.shape_only:
            if fn in self.never:
                return None
            return super().build(op, operand_shapes, result_shapes)
        key = (fn, tuple(operand_shapes), tuple(result_shapes))
        rule = self._memo.get(key)
        if rule is None:
            if len(self._memo) >= self.MAX_MEMO:
                self._memo.clear()
            rule = self._memo[key] = super().build(op, operand_shapes, result_shapes)
        return rule



FAMILIES: tuple[OpFamily, ...] = tuple(
    entry for module in (elementwise, shape, dot, convolution, reduce, windowed, indexing,
                         sort, linalg, batch_norm, collectives, custom_call, sources,
                         structural)
    for entry in module.FAMILIES)

_BY_NAME: dict[str, OpFamily] = {}
for _entry in FAMILIES:
    for _name in _entry.names:
        if _name in _BY_NAME:
            raise ValueError(f"two registry entries for {_name}")
        _BY_NAME[_name] = _entry


def family(name: str) -> OpFamily | None:
    """The entry of the ops named `name`, None for an op shardpy knows nothing about."""
    return _BY_NAME.get(name)


def entry_for(op: ir.Operation) -> OpFamily | None:
    return _BY_NAME.get(op.name)


def ops_with(predicate: Callable[[OpFamily], bool]) -> frozenset[str]:
    """The names of the ops whose entry satisfies `predicate`."""
    return frozenset(name for name, entry in _BY_NAME.items() if predicate(entry))


def by_flow_kind(handlers: dict) -> dict:
    """A stage's structural handler table keyed by Flow.kind, as a table keyed by op
    name (for the stage's per-op dispatch: built once at import, one dict lookup per op):
    every op whose entry's kind has a handler."""
    kinds = {e.flow.kind for e in FAMILIES if e.flow is not None}
    if not set(handlers) <= kinds:
        raise ValueError(f"no registry entry of kind {sorted(set(handlers) - kinds)}")
    return {name: handlers[entry.flow.kind] for name, entry in _BY_NAME.items()
            if entry.flow is not None and entry.flow.kind in handlers}


# --------------------------------------------------------------------------- rules

RULES = _MemoTable()
_CATEGORY = {"shapes": RULES.shape_only, "never": RULES.never, "ir": RULES.reads_ir}
for _entry in FAMILIES:
    if _entry.rule is not None:
        RULES.rule(*_entry.names)(_entry.rule)
        if _entry.caching in _CATEGORY:
            _CATEGORY[_entry.caching].add(_entry.rule)
for _entry in FAMILIES:  # one category per rule function (the memo is keyed by it)
    if _entry.rule is not None and RULES.caching(_entry.names[0]) != _entry.caching:
        raise ValueError(f"{_entry.names[0]}: its rule is cached as "
                         f"{RULES.caching(_entry.names[0])}, not {_entry.caching}")

WITHOUT_RULE = ops_with(lambda e: e.caching == "never" and e.rule is not None)
"""Ops that have no rule on purpose (Shardy gives none either); not worth a warning."""


def rule_for(op: ir.Operation, table: RuleTable | None = None) -> OpRule | None:
    """The op's rule: its own `sdy.sharding_rule` attribute if present, else the table's
    (default: shardpy's RULES)."""
    if RULE_ATTR in op.attributes:
        return OpRule.from_attr(op.attributes[RULE_ATTR])
    table = RULES if table is None else table
    return table.build(op, [shape_of(v.type) for v in op.operands],
                       [shape_of(r.type) for r in op.results])


# --------------------------------------------------------------------------- on shards

LOCAL_OPS: dict[str, LocalOp] = {name: entry.local for name, entry in _BY_NAME.items()
                                 if entry.local is not None}
"""How the ops computed on shards are (every other op with a rule: only pointwise)."""


def local_entry(op: ir.Operation, name: str | None = None) -> LocalOp | None:
    """The op's LocalOp, if it applies to this op (`name`: op.name, where the caller has
    read it)."""
    entry = LOCAL_OPS.get(op.name if name is None else name)
    if entry is not None and entry.applies is not None and not entry.applies(op):
        return None
    return entry


FUSED_OPS = ops_with(lambda e: e.fused)
"""Ops XLA fuses into their neighbours: no compute time of their own in cost estimates."""

READS_RESULT_ONLY = ops_with(lambda e: e.touches == "result")
"""Ops that read only what they write (and their indices): gather, slice, dynamic_slice."""

UPDATES_IN_PLACE = ops_with(lambda e: e.touches == "in place")
"""Ops that write into their first operands' buffers: scatter, dynamic_update_slice."""

COMPARE_COUNTS = {name: e.compares for name, e in _BY_NAME.items()
                  if e.compares is not None}
"""Ops whose compute is bound by comparisons (sort, top_k): name -> compares(op, local
shapes), see OpFamily.compares."""

MULTIPLY_ADDS = {name: e.multiply_adds for name, e in _BY_NAME.items()
                 if e.multiply_adds is not None}
"""Contractions (dot, dot_general, convolution): name -> multiply_adds(op, operand local
shapes, result local shapes), see OpFamily.multiply_adds."""

SOURCE_OPS = ops_with(lambda e: e.source)
"""Ops without operands that shardpy-to-local builds per device in any sharding."""
