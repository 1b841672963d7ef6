"""Looking up an op's sharding rule, and what follows from it for propagation (the
node's category and its pass-through factors), once per op signature.

Why: building the graph of a large module (bench/README.md, "Timing") would otherwise
build one rule per op; most ops of a module repeat a few signatures (name, operand and
result types, attributes), so the rule, its category and the rest are built once per
signature (a Fragment) and shared by every node of that signature. How long a rule can
be cached depends on what the rule table's builder for the op looks at (the table's
`caching`): the categories below. The op priorities are the op registry's traits
(shardpy.ops: `pass_through`, `forward_only`).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..ops.registry import ops_with
from ..sharding.factors import Direction
from ..sharding.op_rule import RULE_ATTR, FactorKind, OpRule, RuleTable, shape_of
from .strategies import pass_through_factors


# Op priorities (propagate.Propagator): the ops propagated first, at every level, and
# the ops that propagate only forwards.
PASS_THROUGH_OPS = ops_with(lambda e: e.pass_through)
FORWARD_ONLY_OPS = ops_with(lambda e: e.forward_only)
ELEMENTWISE_OPS = ops_with(lambda e: e.elementwise)


# How build._build_block treats an op, by name (build.op_kind).
_RULE_FROM_ATTRIBUTES = 0  # rule cached per (name, types, attributes)
_RULE_FROM_SHAPES = 1      # rule cached per (name, types)
_RULE_NEVER = 2            # no rule
_RULE_FROM_IR = 3          # rule built for each op (it looks at more of the IR)
_STRUCTURE = 4             # a structural op (build._STRUCTURAL)
_SDY_OP = 5                # another sdy op (collectives...)
_CACHING = {"shapes": _RULE_FROM_SHAPES, "never": _RULE_NEVER, "ir": _RULE_FROM_IR}


def is_pointwise(rule: OpRule) -> bool:
    tensors = rule.operands + rule.results
    first = tensors[0] if tensors else ()
    return (all(t == first for t in tensors)
            and all(k is FactorKind.PASS_THROUGH for k in rule.kinds)
            and all(len(d) == 1 for d in first))


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


class RuleCache:
    """The rules of one graph's ops, and the tables that let equal things be shared."""

    def __init__(self, table: RuleTable):
        self.table = table
        self.op_kinds: dict[str, int] = {}  # op name -> build.op_kind
        self.fragments: dict = {}   # op signature -> Fragment (None: no rule)
        self._rules: dict[OpRule, OpRule] = {}
        self.pass_through: dict[int, list[bool]] = {}  # id(interned rule) -> per factor
        # Node.key tuple -> a small int for it (memo keys hold it: cheaper to hash)
        self.node_keys: dict[tuple, int] = {}

    def rule_kind(self, name: str) -> int:
        """How the rules of ops named `name` are cached (a _RULE_* category)."""
        return _CACHING.get(self.table.caching(name), _RULE_FROM_ATTRIBUTES)

    def fragment(self, op: ir.Operation, name: str, attrs, own_rule: bool) -> Fragment | None:
        """The op's rule and what follows from it (uncached: see build._build_block)."""
        if own_rule:
            rule = OpRule.from_attr(attrs[RULE_ATTR])
        else:
            rule = self.table.build(op, [shape_of(v.type) for v in op.operands],
                                    [shape_of(r.type) for r in op.results])
        if rule is None:
            return None
        rule = self._rules.setdefault(rule, rule)
        pass_through = self.pass_through.get(id(rule))
        if pass_through is None:
            pass_through = self.pass_through[id(rule)] = pass_through_factors(rule)
        pointwise = is_pointwise(rule)
        category = ("pass_through" if pointwise or name in PASS_THROUGH_OPS
                    else "forward" if name in FORWARD_ONLY_OPS
                    else "broadcast" if name == "stablehlo.broadcast_in_dim" else "other")
        # (an op with a pointwise rule is not elementwise by that alone: a custom_call's
        # identity rule, an all_reduce's)
        fragment = Fragment(rule, category, pointwise and name in ELEMENTWISE_OPS,
                            pass_through)
        fragment.key = self.node_keys.setdefault(fragment.key, len(self.node_keys))
        return fragment
