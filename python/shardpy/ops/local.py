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
  applies      for ops computed locally only in some forms (custom_call: by target or
               with an `sdy.sharding_rule`): a predicate on the op; None: always.
  split        may a need-replication factor stay sharded on the operands, the results
               taking it whole, the lowering combining the per-shard results (top_k:
               local top-k per shard, the k candidates of every shard gathered, top-k
               of those)? A function (op, factor, shards) -> bool; None: never.
               insert-reshards weighs it against moving the operands by bytes.

Need-replication factors that an operand has sharded are never computed on shards
(save `split`): insert-reshards moves their axes onto another dim of the op when one
can take them (an all_to_all in, and back out where the result wants it) or gathers
them, whichever moves fewer bytes.

Optional planning hooks (keyword fields, for ops whose propagation rule is not how
they are best computed on shards):

  rule         (op, propagation rule) -> the rule insert-reshards places factors with
               (dynamic_slice: a sliced dim kept sharded as a reduction factor)
  counted_once (op) -> operand indices that a "sum" result must count once: they are
               made unreduced on the op's sharded reduction axes (a scatter-add's
               initial value, kept on one device and zero on the others)
  whole_too    also weigh keeping the reduction factors whole (operands gathered), by
               bytes moved, against computing partial results
  padding      (op) -> [padding.PadMask]: operand padding shardpy-to-local masks before
               the op (uneven dims). Ops with it may have their reduction factors sharded
               unevenly; pass-through factors may be uneven for every op, other kinds
               never (see shardpy.lowering.padding)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from jaxlib.mlir import ir

from ..lowering import basic
from ..lowering import padding as pad
from ..lowering import select
from ..lowering.indexing import dynamic_slice, gather, scatter
from ..lowering.windowed import (concatenate, convolution, pad_slice, reduce_window,
                                 select_and_scatter)
from ..lowering.reducers import reduce_combine
from ..sharding.op_rule import RULE_ATTR


@dataclass(frozen=True)
class LocalOp:
    combine: Callable[[ir.Operation], str | None] | None = None
    permutation: bool = False
    lower: Callable | None = None
    exchange: Callable | None = None
    windowed: Callable | None = None
    variant: Callable | None = None
    applies: Callable[[ir.Operation], bool] | None = None
    split: Callable[[ir.Operation, int, int], bool] | None = None
    rule: Callable | None = None
    counted_once: Callable | None = None
    whole_too: bool = False
    padding: Callable | None = None


def _sum(op: ir.Operation) -> str:
    return "sum"


def _custom_call_local(op: ir.Operation) -> bool:
    """A custom_call is computed on shards when its own `sdy.sharding_rule` says how
    (the rule is the contract: pass-through dims are independent), or when it is a
    top-k whose rule shardpy knows; every other target is computed replicated."""
    if RULE_ATTR in op.attributes:
        return True
    return _custom_call_target(op) in ("ApproxTopK", "PartialReduce", "mhlo.topk")


def _custom_call_target(op: ir.Operation) -> str:
    return ir.StringAttr(op.attributes["call_target_name"]).value


def _custom_call_combine(op: ir.Operation) -> str | None:
    """Reduction factors of a custom rule are sums, as in Shardy (its explicit reshards
    finish them with an all-reduce)."""
    return "sum" if RULE_ATTR in op.attributes else None


LOCAL_OPS: dict[str, LocalOp] = {
    # op                           combine         permutation  lower
    "stablehlo.broadcast_in_dim":  LocalOp(),
    "stablehlo.transpose":         LocalOp(),
    "stablehlo.reshape":           LocalOp(),
    "stablehlo.convert":           LocalOp(),
    "stablehlo.select":            LocalOp(),
    "stablehlo.clamp":             LocalOp(),
    "stablehlo.compare":           LocalOp(),
    "stablehlo.dot_general":       LocalOp(_sum, padding=pad.dot_general_padding),
    "stablehlo.dot":               LocalOp(_sum, padding=pad.dot_padding),
    "stablehlo.reduce":            LocalOp(reduce_combine, False, select.lower_reduce,
                                           padding=pad.reduce_padding),
    "stablehlo.sort":              LocalOp(),
    "chlo.top_k":                  LocalOp(None, False, select.lower_top_k,
                                           split=select.top_k_can_split),
    "stablehlo.custom_call":       LocalOp(_custom_call_combine,
                                           applies=_custom_call_local),
    # windowed ops: halos / shifts / mirrors between shards (lowering_windowed.py)
    "stablehlo.pad":               LocalOp(None, True, pad_slice.lower_pad,
                                           pad_slice.pad_cost),
    "stablehlo.slice":             LocalOp(None, True, pad_slice.lower_slice,
                                           pad_slice.slice_cost),
    "stablehlo.reverse":           LocalOp(None, True, pad_slice.lower_reverse,
                                           pad_slice.reverse_cost),
    "stablehlo.concatenate":       LocalOp(None, True, concatenate.lower_concatenate,
                                           concatenate.concatenate_cost),
    "stablehlo.reduce_window":     LocalOp(None, True, reduce_window.lower_reduce_window,
                                           reduce_window.reduce_window_cost,
                                           reduce_window.reduce_window_windowed,
                                           reduce_window.reduce_window_variant),
    "stablehlo.select_and_scatter": LocalOp(
        None, True, select_and_scatter.lower_select_and_scatter,
        select_and_scatter.select_and_scatter_cost,
        variant=select_and_scatter.select_and_scatter_variant),
    "stablehlo.convolution":       LocalOp(_sum, True, convolution.lower_convolution,
                                           convolution.convolution_cost,
                                           convolution.convolution_windowed),
    "stablehlo.iota":              LocalOp(None, False, basic.lower_iota),
    "stablehlo.constant":          LocalOp(None, False, basic.lower_constant),
    "stablehlo.gather":            LocalOp(gather.gather_combine, False,
                                           gather.lower_gather,
                                           padding=pad.reads_no_padding),
    "stablehlo.scatter":           LocalOp(scatter.scatter_combine, False,
                                           scatter.lower_scatter,
                                           counted_once=scatter.scatter_counted_once,
                                           padding=pad.scatter_padding),
    "stablehlo.dynamic_slice":     LocalOp(dynamic_slice.dynamic_slice_combine, False,
                                           dynamic_slice.lower_dynamic_slice,
                                           rule=dynamic_slice.dynamic_slice_rule,
                                           whole_too=True,
                                           padding=pad.reads_no_padding),
    "stablehlo.dynamic_update_slice": LocalOp(None, False,
                                              dynamic_slice.lower_dynamic_update_slice),
}


def local_entry(op: ir.Operation, name: str | None = None) -> LocalOp | None:
    """The op's LOCAL_OPS entry, if it applies to this op (`name`: op.name, where the
    caller has read it)."""
    entry = LOCAL_OPS.get(op.name if name is None else name)
    if entry is not None and entry.applies is not None and not entry.applies(op):
        return None
    return entry


# Ops without operands that shardpy-to-local builds per device in any sharding.
SOURCE_OPS = frozenset({"stablehlo.constant", "stablehlo.iota"})
