"""Which ops shardpy computes on local shards, and how: one table.

shardpy-insert-reshards computes an op on shards when it has a sharding rule and is
pointwise or listed in LOCAL_OPS; every other op is computed replicated (operands
gathered, result sliced) with a warning. Each entry says:

  combine      what becomes of a result computed from slices of a sharded reduction
               factor (a contracted dim, a reduced dim, a gathered collapsed dim):
               "sum": it is a partial sum, left unreduced on those axes (an all_reduce
               follows where a consumer needs it whole); "self-combining": max, min,
               multiply, and, or (the lowering finishes it with an all_reduce of the
               same reducer); None: reduction factors are kept whole. A function of the
               op, as the answer depends on its body.
  permutation  may permutation factors (windowed, padded, sliced, reversed dims) stay
               sharded? Only where the lowering exchanges the data shards need
               (halos); else they are kept whole.
  lower        shardpy-to-local's fix-up for the op (a function (lowering, op)); None:
               the op is correct on shards as it is, once its result types are shrunk
               to local shapes.

Optional planning hooks (keyword fields, for ops whose propagation rule is not how
they are best computed on shards):

  rule         (op, propagation rule) -> the rule insert-reshards places factors with
               (dynamic_slice: a sliced dim kept sharded as a reduction factor)
  counted_once (op) -> operand indices that a "sum" result must count once: they are
               made unreduced on the op's sharded reduction axes (a scatter-add's
               initial value, kept on one device and zero on the others)
  whole_too    also weigh keeping the reduction factors whole (operands gathered), by
               bytes moved, against computing partial results
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from jaxlib.mlir import ir

from . import lowering_basic as basic
from . import lowering_indexing as indexing
from .reducers import reducer_kind


@dataclass(frozen=True)
class LocalOp:
    combine: Callable[[ir.Operation], str | None] | None = None
    permutation: bool = False
    lower: Callable | None = None
    rule: Callable | None = None
    counted_once: Callable | None = None
    whole_too: bool = False


def _sum(op: ir.Operation) -> str:
    return "sum"


LOCAL_OPS: dict[str, LocalOp] = {
    # op                           combine         permutation  lower
    "stablehlo.broadcast_in_dim":  LocalOp(),
    "stablehlo.transpose":         LocalOp(),
    "stablehlo.reshape":           LocalOp(),
    "stablehlo.convert":           LocalOp(),
    "stablehlo.select":            LocalOp(),
    "stablehlo.clamp":             LocalOp(),
    "stablehlo.compare":           LocalOp(),
    "stablehlo.concatenate":       LocalOp(),
    "stablehlo.pad":               LocalOp(),
    "stablehlo.dot_general":       LocalOp(_sum),
    "stablehlo.dot":               LocalOp(_sum),
    "stablehlo.reduce":            LocalOp(reducer_kind, False, basic.lower_reduce),
    "stablehlo.slice":             LocalOp(None, False, basic.lower_slice),
    "stablehlo.iota":              LocalOp(None, False, basic.lower_iota),
    "stablehlo.constant":          LocalOp(None, False, basic.lower_constant),
    "stablehlo.gather":            LocalOp(indexing.gather_combine, False,
                                           indexing.lower_gather),
    "stablehlo.scatter":           LocalOp(indexing.scatter_combine, False,
                                           indexing.lower_scatter,
                                           counted_once=indexing.scatter_counted_once),
    "stablehlo.dynamic_slice":     LocalOp(indexing.dynamic_slice_combine, False,
                                           indexing.lower_dynamic_slice,
                                           rule=indexing.dynamic_slice_rule,
                                           whole_too=True),
    "stablehlo.dynamic_update_slice": LocalOp(None, False,
                                              indexing.lower_dynamic_update_slice),
}

# Ops without operands that shardpy-to-local builds per device in any sharding.
SOURCE_OPS = frozenset({"stablehlo.constant", "stablehlo.iota"})
