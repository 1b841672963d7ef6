"""The registry's entry type: OpFamily, what shardpy knows about a family of ops, with
its two nested descriptions, LocalOp (how the ops compute on shards) and Flow (how a
structural op moves values). The family modules (elementwise.py, indexing.py, ...) fill
them in; registry.py indexes them by op name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from jaxlib.mlir import ir


@dataclass(frozen=True)
class LocalOp:
    """How an op computes on shards.

    shardpy-insert-reshards computes an op on shards when it has a sharding rule and is
    pointwise or has a LocalOp; every other op is computed replicated (operands
    gathered, result sliced) with a warning.

    combine      what becomes of a result computed from slices of a sharded reduction
                 factor (a contracted dim, a reduced dim, a gathered collapsed dim):
                 "sum": it is a partial sum, left unreduced on those axes (an all_reduce
                 follows where a consumer needs it whole); "self-combining": max, min,
                 multiply, and, or (the lowering finishes it with an all_reduce of the
                 same reducer); None: reduction factors are kept whole. A function of the
                 op, as the answer depends on its body.
    permutation  may permutation factors (windowed, padded, sliced, reversed dims) stay
                 sharded? Only where the lowering exchanges the data shards need
                 (halos, lowering/windowed/ over halo.py); else they are kept whole.
    lower        shardpy-to-local's fix-up for the op (a function (lowering, op)); None:
                 the op is correct on shards as it is, once its result types are shrunk
                 to local shapes. It returns True when it erased the op.
    exchange     with permutation: the collectives the lowering makes between devices
                 for given operand and result shardings (op, operands, results), a
                 tuple of (kind, group size, bytes per device): a halo's
                 collective_permutes, a scan's all_gather of totals; None where it
                 cannot compute on them. insert-reshards weighs it
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
                 the op (uneven dims). Ops with it may have their reduction factors
                 sharded unevenly; pass-through factors may be uneven for every op, other
                 kinds never (see shardpy.lowering.padding)
    """
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


# The stages that inline ops (Flow.inlined_by).
INSERT_RESHARDS = "insert-reshards"
TO_LOCAL = "to-local"

# Flow.kind: what a stage does at a structural op. Each stage keys its structural handler
# table by these (propagation/build.py, partition/regions.py), so the op names appear
# only in ops/structural.py.
FUNCTION = "function"                 # func.func
CALL = "call"                         # func.call
FUNCTION_RETURN = "function return"   # func.return
REGION_RETURN = "region return"       # the terminator of a region op's region
LOOP = "loop"                         # while
BRANCHES = "branches"                 # case, if
MANUAL = "manual computation"
NAMED = "named computation"
CARRY = "carry"                       # optimization_barrier: operand i is result i
PROPAGATION_BARRIER = "propagation barrier"
CONSTRAINT = "constraint"             # sharding_constraint
RESHARD = "reshard"
GROUP = "group"                       # sharding_group
SYMBOL = "symbol"                     # sdy.mesh: links nothing
EDGE = "edge"                         # sdy.data_flow_edge: its result is its operand


@dataclass(frozen=True)
class Flow:
    """How a structural op (one that organises data flow and has no sharding rule of its
    own) moves values: which values are the same program value seen at two places, so
    that propagation links their shardings, insert-reshards reshards between them and
    to-local gives them one local type. Operand, block argument and result indices pair
    up one to one (i with i) where a field says they flow.

    kind                 what the stages do at it (FUNCTION, CALL, LOOP, ... above): the
                         key of propagation's and insert-reshards' structural handler
                         tables (a stage whose table lacks the kind does not dispatch on
                         the op); to-local dispatches structural ops through traits
                         (OpFamily.sharding_attr, `collective_lowering`) and the fields
                         below
    operands_to_results  operand i flows to result i (constraints, reshards, barriers;
                         a while's carried values)
    operands_to_args     operand i flows to block argument i of each region (while's
                         cond and body; a manual or named computation's body)
    returns_to_results   the operands of its regions' terminator flow to the results, i
                         to i (while: the body's; case, if: every branch's; manual and
                         named computations: the body's sdy.return)
    returns_to_args      the body's terminator operand i flows back to its block
                         argument i (while: loop-carried values)
    to_parent            a terminator: operand i flows to its parent's result i
                         (func.return: the function's result i)
    to_callee            func.call: operand i flows to the callee's argument i, the
                         callee's returned value i to result i
    to_group             sdy.sharding_group: the operand joins every value of its group
                         id (all get one sharding); no result
    program_regions      its regions hold program data flow, walked by every stage (other
                         ops' regions are per-element computations: reduce bodies, sort
                         comparators...)
    function             func.func itself: a stage walks its body as a function (its
                         arguments and returned values are the signature's), never
                         dispatches on it as an op in a block
    inlined_by           the stage that inlines its body in its place (INSERT_RESHARDS:
                         named computations; TO_LOCAL: manual computations); later
                         stages never meet it
    """
    kind: str
    operands_to_results: bool = False
    operands_to_args: bool = False
    returns_to_results: bool = False
    returns_to_args: bool = False
    to_parent: bool = False
    to_callee: bool = False
    to_group: bool = False
    program_regions: bool = False
    function: bool = False
    inlined_by: str | None = None


@dataclass(frozen=True)
class OpFamily:
    """Everything op-specific shardpy knows about a family of ops: one entry answers how
    its ops propagate, are planned, and are lowered to shards. Ops share an entry when
    every field below is the same for them.

    names        the op names ("stablehlo.gather")
    rule         the sharding rule function (op, RuleBuilder), as written in the family's
                 module; None: no rule (the op is structural, an sdy collective, or
                 unknown to propagation). Returning False means "no rule for this
                 instance" (a custom_call target shardpy does not know).
    caching      what the rule depends on (RuleTable.caching): "shapes" (operand and
                 result shapes only: memoised per shape), "attributes" (types and the
                 op's attributes), "ir" (more of the IR: producers, regions, users),
                 "never" (no rule by design: WITHOUT_RULE)
    local        how it computes on shards (LocalOp: combine, permutation, lower...);
                 None: only as a pointwise op, else replicated (with a warning)
    flow         structural ops: how it moves values (Flow); None for ops with a rule

    Traits (each was an op-name set in one stage; registry.ops_with gives the set back):

    source       builds its result from nothing but attributes (constant, iota):
                 propagation gives every use its own copy; to-local builds it per
                 device in any sharding; insert-reshards remakes it in any layout
    constant_shaper  only reshapes one operand (broadcast_in_dim, reshape, convert,
                 transpose): a shaper of a constant expression or a scalar is constant
                 too (propagation's constant splitting)
    pass_through propagation treats its rule as pass-through (reshape, transpose)
    forward_only propagation moves shardings only from operands to results
                 (dynamic_slice, dynamic_update_slice)
    unreduced_preserving  only moves elements: a partial (unreduced) input gives a
                 partial output (propagation's infer_unreduced)
    linear       how partial (unreduced) operands carry through it (insert-reshards):
                 "all operands" (add: every operand equally partial), "single operand"
                 (negate, slice: its one data operand partial), "one side" (multiply,
                 dot: exactly one operand partial); None: not linear
    fallback_reason  why insert-reshards computes it replicated, for its warning (None:
                 the default reason)
    sharding_attr    where its result shardings are when not in `sdy.sharding`:
                 "sharding" (sdy.sharding_constraint, sdy.reshard), "out_sharding" (sdy
                 collectives), "out_shardings" (sdy.manual_computation); taken from
                 sharding/state.py's RESULT_SHARDING_ATTR, which reads them
    collective   an sdy collective (shardpy-reshard-to-collectives makes them; their
                 names: sharding/state.py's SDY_COLLECTIVES)
    collective_lowering  shardpy-to-local lowers it as a collective (sdy collectives;
                 sdy.reshard: only between meshes, like a collective_permute)
    channel      carries a `channel_handle` (to-local numbers its new collectives past
                 the highest)
    xla_folds_dynamic_slice  XLA:CPU folds it with a dynamic_slice it reads and drops
                 the slice's clamp: to-local shields its operand with a barrier
    xla_moves_dynamic_slice  XLA:CPU moves a dynamic_slice across it (so the folding
                 above sees through it)
    xla_splits_all_to_all  XLA:CPU splits an all_to_all of its result over its pieces
                 and then rejects it: to-local gives such an all_to_all a barrier
    elementwise  has StableHLO's Elementwise trait (Shardy's isElementwise): the aggressive
                 strategy prefers its most-sharded factor on conflicts and moves no axes
                 sideways between its operands that a result does not have
    fused        XLA fuses it into the ops around it (elementwise math, broadcasts,
                 transposes, reshapes): it reads and writes no memory of its own, so
                 shardpy-choose-shardings' compute estimate counts none for it
    touches      the memory its compute estimate counts: "all" (every operand read
                 whole, every result written), "result" (it reads only what it writes,
                 and its index operands: gather, slice, dynamic_slice), "in place" (it
                 writes into its first operands' buffers, reading and writing only what
                 its other operands say: scatter, dynamic_update_slice)
    compares     compares(op, local_shapes) -> the comparisons its compute makes on
                 operands of these local shapes (a sort: n log2 of the sorted dim),
                 which the compute estimate charges at the profile's compare rate (a
                 sort is bound by them, not by the memory it touches)
    multiply_adds  multiply_adds(op, operand local shapes, result local shapes) ->
                 MultiplyAdds: a contraction's multiply-adds on shards of these shapes,
                 which the compute estimate charges at the profile's matmul rate or,
                 for a convolution, at its measured rate for that shape
    """
    names: tuple[str, ...]
    rule: Callable | None = None
    caching: str = "attributes"
    local: LocalOp | None = None
    flow: Flow | None = None
    source: bool = False
    constant_shaper: bool = False
    pass_through: bool = False
    forward_only: bool = False
    unreduced_preserving: bool = False
    linear: str | None = None
    fallback_reason: str | None = None
    sharding_attr: str | None = None
    collective: bool = False
    collective_lowering: bool = False
    channel: bool = False
    xla_folds_dynamic_slice: bool = False
    xla_moves_dynamic_slice: bool = False
    xla_splits_all_to_all: bool = False
    elementwise: bool = False
    fused: bool = False
    touches: str = "all"
    compares: Callable | None = None
    multiply_adds: Callable | None = None

    @property
    def structural(self) -> bool:
        """Organises data flow only: handled by edges, never by a rule."""
        return self.flow is not None


class MultiplyAdds(NamedTuple):
    """What OpFamily.multiply_adds counts: `count` multiply-adds on one device, done as
    a "matmul" (a dot) or a "convolution" with `features` output features per feature
    group and `contraction` multiply-adds per output element (input features times
    window size): XLA's convolution rates depend on both."""
    count: float
    kind: str = "matmul"
    features: int = 1
    contraction: int = 1


# OpFamily.linear
ALL_OPERANDS = "all operands"
SINGLE_OPERAND = "single operand"
ONE_SIDE = "one side"
