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
               (halos, lowering_windowed.py over halo.py); else they are kept whole.
  lower        shardpy-to-local's fix-up for the op (a function (lowering, op)); None:
               the op is correct on shards as it is, once its result types are shrunk
               to local shapes. It returns True when it erased the op.
  exchange     with permutation: the bytes per device the lowering moves between
               devices for given operand and result shardings (op, operands, results),
               or None where it cannot compute on them. insert-reshards weighs it
               against keeping the windowed factors whole (the planner's gathers) and
               takes the cheaper: e.g. a slice keeping a small part of a dim may cost
               less gathered than shifted.
  windowed     with permutation: the factors that need an exchange when sharded (op,
               rule) -> set; default: the rule's permutation factors.
  variant      what else of the op (its regions, constant operands) changes how its
               shards are computed: part of insert-reshards' plan cache key.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from jaxlib.mlir import ir

from . import lowering_basic as basic
from . import lowering_windowed as windowed
from .reducers import reducer_kind


@dataclass(frozen=True)
class LocalOp:
    combine: Callable[[ir.Operation], str | None] | None = None
    permutation: bool = False
    lower: Callable | None = None
    exchange: Callable | None = None
    windowed: Callable | None = None
    variant: Callable | None = None


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
    "stablehlo.dot_general":       LocalOp(_sum),
    "stablehlo.dot":               LocalOp(_sum),
    "stablehlo.reduce":            LocalOp(reducer_kind, False, basic.lower_reduce),
    # windowed ops: halos / shifts / mirrors between shards (lowering_windowed.py)
    "stablehlo.pad":               LocalOp(None, True, windowed.lower_pad,
                                           windowed.pad_cost),
    "stablehlo.slice":             LocalOp(None, True, windowed.lower_slice,
                                           windowed.slice_cost),
    "stablehlo.reverse":           LocalOp(None, True, windowed.lower_reverse,
                                           windowed.reverse_cost),
    "stablehlo.concatenate":       LocalOp(None, True, windowed.lower_concatenate,
                                           windowed.concatenate_cost),
    "stablehlo.reduce_window":     LocalOp(None, True, windowed.lower_reduce_window,
                                           windowed.reduce_window_cost,
                                           windowed.reduce_window_windowed,
                                           windowed.reduce_window_variant),
    "stablehlo.select_and_scatter": LocalOp(None, True, windowed.lower_select_and_scatter,
                                            windowed.select_and_scatter_cost,
                                            variant=windowed.select_and_scatter_variant),
    "stablehlo.convolution":       LocalOp(_sum, True, windowed.lower_convolution,
                                           windowed.convolution_cost,
                                           windowed.convolution_windowed),
    "stablehlo.iota":              LocalOp(None, False, basic.lower_iota),
    "stablehlo.constant":          LocalOp(None, False, basic.lower_constant),
}

# Ops without operands that shardpy-to-local builds per device in any sharding.
SOURCE_OPS = frozenset({"stablehlo.constant", "stablehlo.iota"})
