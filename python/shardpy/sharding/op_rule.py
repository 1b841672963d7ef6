"""Op sharding rules: how each operand/result dimension of an op maps onto factors.

A rule is Shardy's `OpShardingRule` as plain Python (see Shardy's docs on propagation):
every dimension of every operand and result is a list of factors (major to minor; more
than one where a reshape merges or splits dims), each factor has a size and a kind:

  PASS_THROUGH      the factor appears in operands and results alike (elementwise dims,
                    batch dims, non-contracting dims): shard it anywhere, compute locally
  REDUCTION         appears in operands only and is summed/reduced away (contracting dims,
                    reduced dims): sharding it leaves partial results
  NEED_REPLICATION  must be whole on every device for the op to compute (sort dim, fft
                    dims, cholesky matrix dims)
  PERMUTATION       elements move along it (pad, slice, reverse, windowed dims): shardable,
                    but computing needs data from neighbours

A factor can also be *blocked*: propagation must not move shardings along it.

Rules are written in shardpy.ops, one module per op family, with `RuleBuilder`.
`OpRule.to_attr()` gives `#sdy.op_sharding_rule<...>`, the same notation Shardy prints,
so our rules can be compared with `sdy-populate-op-sharding-rules`.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy


class FactorKind(enum.Enum):
    PASS_THROUGH = "pass-through"
    REDUCTION = "reduction"
    NEED_REPLICATION = "need-replication"
    PERMUTATION = "permutation"


# Per tensor, per dimension: the factor indices of that dimension, major to minor.
TensorMapping = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class OpRule:
    factor_sizes: tuple[int, ...]
    operands: tuple[TensorMapping, ...]
    results: tuple[TensorMapping, ...]
    kinds: tuple[FactorKind, ...]
    blocked: frozenset[int] = frozenset()
    is_custom: bool = False

    @property
    def num_factors(self) -> int:
        return len(self.factor_sizes)

    def factors_of(self, kind: FactorKind) -> list[int]:
        return [f for f, k in enumerate(self.kinds) if k is kind]

    # -- sdy attribute ---------------------------------------------------------------
    def to_attr(self) -> ir.Attribute:
        def mapping(tensor: TensorMapping) -> ir.Attribute:
            return sdy.TensorMappingAttr.get([sdy.DimMappingAttr.get(list(d)) for d in tensor])

        return sdy.OpShardingRuleAttr.get(
            list(self.factor_sizes), [mapping(t) for t in self.operands],
            [mapping(t) for t in self.results],
            reduction_factors=self.factors_of(FactorKind.REDUCTION),
            need_replication_factors=self.factors_of(FactorKind.NEED_REPLICATION),
            permutation_factors=self.factors_of(FactorKind.PERMUTATION),
            blocked_propagation_factors=sorted(self.blocked),
            is_custom=self.is_custom)

    @staticmethod
    def from_attr(attr: ir.Attribute) -> "OpRule":
        rule = sdy.OpShardingRuleAttr(attr)

        def mapping(tensor: ir.Attribute) -> TensorMapping:
            return tuple(tuple(sdy.DimMappingAttr(d).factor_indices)
                         for d in sdy.TensorMappingAttr(tensor).dim_mappings)

        sizes = tuple(rule.factor_sizes)
        kinds = [FactorKind.PASS_THROUGH] * len(sizes)
        for kind, factors in ((FactorKind.REDUCTION, rule.reduction_factors),
                              (FactorKind.NEED_REPLICATION, rule.need_replication_factors),
                              (FactorKind.PERMUTATION, rule.permutation_factors)):
            for f in factors:
                kinds[f] = kind
        return OpRule(sizes, tuple(map(mapping, rule.operand_mappings)),
                      tuple(map(mapping, rule.result_mappings)), tuple(kinds),
                      frozenset(rule.blocked_propagation_factors), rule.is_custom)

    def canonical(self) -> "OpRule":
        """The same rule with factors renumbered by first appearance (operands, then
        results, major to minor): two builders that create factors in different orders
        give equal canonical rules."""
        order: dict[int, int] = {}
        for tensor in self.operands + self.results:
            for dim in tensor:
                for f in dim:
                    order.setdefault(f, len(order))
        for f in range(self.num_factors):
            order.setdefault(f, len(order))
        inverse = sorted(order, key=order.get)

        def remap(tensors):
            return tuple(tuple(tuple(order[f] for f in dim) for dim in t) for t in tensors)

        return OpRule(tuple(self.factor_sizes[f] for f in inverse), remap(self.operands),
                      remap(self.results), tuple(self.kinds[f] for f in inverse),
                      frozenset(order[f] for f in self.blocked), self.is_custom)


# --------------------------------------------------------------------------- builder


class RuleBuilder:
    """Builds an OpRule for one op, given its operand and result shapes.

        b.factor(16, operands={0: 0}, results={0: 0})             # lhs dim 0 <-> result dim 0
        b.factor(32, operands={0: 1, 1: 0}, kind=FactorKind.REDUCTION)  # contracting
        b.pointwise(shape)                                         # every dim, every tensor

    Each call appends the new factor to the (minor end of the) listed dims, so calling
    `factor` twice on one dim makes a compound dim (reshape).
    """

    def __init__(self, operand_shapes: Sequence[Sequence[int]],
                 result_shapes: Sequence[Sequence[int]]):
        self.operand_shapes = [tuple(s) for s in operand_shapes]
        self.result_shapes = [tuple(s) for s in result_shapes]
        self._operands = [[[] for _ in s] for s in self.operand_shapes]
        self._results = [[[] for _ in s] for s in self.result_shapes]
        self._sizes: list[int] = []
        self._kinds: list[FactorKind] = []
        self._blocked: set[int] = set()
        self.is_custom = False

    def factor(self, size: int, operands: Mapping[int, int] | None = None,
               results: Mapping[int, int] | None = None,
               kind: FactorKind = FactorKind.PASS_THROUGH, blocked: bool = False) -> int:
        """A new factor of `size` at {tensor index: dim} of operands and results."""
        index = len(self._sizes)
        self._sizes.append(size)
        self._kinds.append(kind)
        if blocked:
            self._blocked.add(index)
        for tensor, dim in (operands or {}).items():
            self._operands[tensor][dim].append(index)
        for tensor, dim in (results or {}).items():
            self._results[tensor][dim].append(index)
        return index

    def pointwise(self, shape: Sequence[int], kind: FactorKind = FactorKind.PASS_THROUGH,
                  operands: Iterable[int] | None = None,
                  results: Iterable[int] | None = None) -> None:
        """One factor per dim of `shape`, mapped to that dim of every listed tensor
        (default: every operand and result whose rank equals len(shape))."""
        rank = len(shape)
        ops = [i for i, s in enumerate(self.operand_shapes) if len(s) == rank] \
            if operands is None else list(operands)
        res = [i for i, s in enumerate(self.result_shapes) if len(s) == rank] \
            if results is None else list(results)
        for d, size in enumerate(shape):
            self.factor(size, {i: d for i in ops}, {i: d for i in res}, kind)

    def build(self) -> OpRule:
        # A dim no factor covers gets a size-1 factor of its own, as in Shardy's builder:
        # an empty dim mapping is not a valid rule (it prints as `#sdy.dim_mapping`).
        for tensors in (self._operands, self._results):
            for tensor in tensors:
                for dim in tensor:
                    if not dim:
                        dim.append(len(self._sizes))
                        self._sizes.append(1)
                        self._kinds.append(FactorKind.PASS_THROUGH)

        def freeze(tensors):
            return tuple(tuple(tuple(dim) for dim in t) for t in tensors)

        return OpRule(tuple(self._sizes), freeze(self._operands), freeze(self._results),
                      tuple(self._kinds), frozenset(self._blocked), self.is_custom)


# --------------------------------------------------------------------------- registry

RuleFunction = Callable[[ir.Operation, RuleBuilder], "None | bool"]


class RuleTable:
    """op name -> rule function. A function fills the builder; returning False means
    "no rule for this instance" (e.g. a custom_call target we don't know)."""

    def __init__(self):
        self.functions: dict[str, RuleFunction] = {}

    def rule(self, *names: str) -> Callable[[RuleFunction], RuleFunction]:
        def register(fn: RuleFunction) -> RuleFunction:
            for name in names:
                if name in self.functions:
                    raise ValueError(f"two sharding rules for {name}")
                self.functions[name] = fn
            return fn

        return register

    def __contains__(self, name: str) -> bool:
        return name in self.functions

    def caching(self, name: str) -> str:
        """What the rule of an op named `name` depends on, so callers know how they may
        cache it: "shapes" (operand and result types only), "attributes" (types and the
        op's attributes), "ir" (more of the IR: operand producers, regions, users: do not
        cache), or "never" (there is no rule)."""
        return "attributes" if name in self.functions else "never"

    def build(self, op: ir.Operation, operand_shapes, result_shapes) -> OpRule | None:
        fn = self.functions.get(op.name)
        if fn is None:
            return None
        builder = RuleBuilder(operand_shapes, result_shapes)
        if fn(op, builder) is False:
            return None
        return builder.build()


def shape_of(value_type: ir.Type) -> tuple[int, ...]:
    """Shape of a ranked tensor type; () for tokens and other non-tensors."""
    if isinstance(value_type, ir.RankedTensorType):
        return tuple(value_type.shape)
    return ()


RULE_ATTR = "sdy.sharding_rule"

