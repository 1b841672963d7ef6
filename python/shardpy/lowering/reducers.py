"""What a reduction computes, read off its body: sum, a self-combining reducer, or
something shardpy does not split.

A reduction over a sharded dim can be computed per shard and finished across devices
only when its body applies one associative reducer to (accumulator, element) and its
init value is that reducer's identity (then devices holding no element contribute
nothing). "sum" partials may stay unreduced and be added later (linear consumers);
"self-combining" ones (max, min, multiply, and, or) are finished at once by an
all_reduce with the same reducer.

JAX's argmax/argmin is a reduce over (values, indices) whose body selects one of the two
pairs ("select-pair", is_select_pair_reduce): a NaN value first (of two NaNs, the left
one), else the greater (argmin: smaller) value, equal values to the lower index. Read as
a binary operation on pairs that body is associative: it returns the leftmost NaN pair if
there is one, else the maximum of (value, -index). So the per-shard results, reduced
again in shard order with the same body and init values, are exactly the unsplit result:
reduce may evaluate in any tree whose in-order traversal keeps the elements in order,
and the init pair, taken once per shard instead of once, is one more copy of a pair
that loses or wins the same way every time (the maximum of a set does not change when
an element is repeated).
"""

from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir

from ..ir.utils import complex_splat

SUM_REDUCERS = frozenset({"stablehlo.add"})
SELF_COMBINING_REDUCERS = frozenset({"stablehlo.maximum", "stablehlo.minimum",
                                     "stablehlo.multiply", "stablehlo.and",
                                     "stablehlo.or"})
# Reducers whose results over parts combine with the reducer itself (reduce, scans,
# scatter and select_and_scatter bodies split across shards).
COMBINABLE_REDUCERS = SUM_REDUCERS | SELF_COMBINING_REDUCERS
SCATTER_REDUCERS = COMBINABLE_REDUCERS
# Reducers for which counting the operand's initial value more than once is harmless.
IDEMPOTENT_REDUCERS = frozenset({"stablehlo.maximum", "stablehlo.minimum", "stablehlo.or",
                                 "stablehlo.and"})


def scatter_reducer(op: ir.Operation) -> str | None:
    """The op name of a scatter body that folds every update into its input with one
    and the same reducer (`%r_i = reducer %input_i, %update_i`, either order), else None.
    Then updates that land on one element from different shards can be combined by an
    all-reduce: the scatter's sharding rule (ops/indexing.py) and its lowering
    (lowering/indexing/scatter.py) both ask this one function."""
    n = len(op.results)
    block = op.regions[0].blocks[0]
    args = list(block.arguments)
    ops = [o.operation for o in block.operations]
    terminator = ops[-1]
    reducers = set()
    for i, value in enumerate(terminator.operands):
        if not isinstance(value, ir.OpResult):
            return None
        producer = value.owner.operation
        if producer.name not in SCATTER_REDUCERS or len(producer.operands) != 2:
            return None
        pair = list(producer.operands)
        if pair not in ([args[i], args[n + i]], [args[n + i], args[i]]):
            return None
        reducers.add(producer.name)
    return reducers.pop() if len(reducers) == 1 else None


def reducer_kind(op: ir.Operation) -> str | None:
    """'sum', 'self-combining' or None, for a single-input reduce whose body is one
    reducer op with an identity init value."""
    if op.name != "stablehlo.reduce" or len(op.operands) != 2:
        return None
    name = body_reducer(op.regions[0])
    if name in SUM_REDUCERS:
        return "sum" if is_identity_init(op.operands[1], "sum") else None
    if name in SELF_COMBINING_REDUCERS:
        return "self-combining" if is_identity_init(op.operands[1], name) else None
    return None


def reduce_combine(op: ir.Operation) -> str | None:
    """How a reduce over a sharded dim is finished: reducer_kind, or "select-pair" for
    an argmax/argmin reduce (per-shard pairs gathered and reduced again)."""
    kind = reducer_kind(op)
    if kind is None and is_select_pair_reduce(op):
        return "select-pair"
    return kind


def is_select_pair_reduce(op: ir.Operation) -> bool:
    """A reduce over (values, indices) whose body is JAX's argmax/argmin comparator:

        pick = compare GT|LT va, vb  or  compare NE va, va      (NaN wins)
        pick_i = pick  or  (compare EQ va, vb  and  compare LT ia, ib)
        return select(pick, va, vb), select(pick_i, ia, ib)

    with constant init values, the value's not NaN (block args: va, ia, vb, ib)."""
    if op.name != "stablehlo.reduce" or len(op.operands) != 4:
        return False
    for init in op.operands[2:]:
        if not isinstance(init, ir.OpResult) or \
                init.owner.operation.name != "stablehlo.constant":
            return False
    try:
        init_value = np.array(ir.DenseElementsAttr(
            op.operands[2].owner.operation.attributes["value"])).reshape(-1)
        if init_value.size != 1 or (np.issubdtype(init_value.dtype, np.floating)
                                    and np.isnan(init_value[0])):
            return False
    except Exception:  # element types numpy cannot hold
        return False
    block = op.regions[0].blocks[0]
    va, ia, vb, ib = list(block.arguments)
    ops = [o.operation for o in block.operations]
    if len(ops) != 10:
        return False
    names = [o.name for o in ops]
    if names != ["stablehlo.compare", "stablehlo.compare", "stablehlo.or",
                 "stablehlo.compare", "stablehlo.compare", "stablehlo.and", "stablehlo.or",
                 "stablehlo.select", "stablehlo.select", "stablehlo.return"]:
        return False
    better, nan, pick, eq, lower, tie, pick_i, value, index, ret = ops

    def cmp(o, direction, lhs, rhs) -> bool:
        return (_direction(o) == direction and list(o.operands) == [lhs, rhs])

    def res(o):
        return o.results[0]

    return (_direction(better) in ("GT", "LT") and list(better.operands) == [va, vb]
            and cmp(nan, "NE", va, va)
            and set(pick.operands) == {res(better), res(nan)}
            and cmp(eq, "EQ", va, vb) and cmp(lower, "LT", ia, ib)
            and set(tie.operands) == {res(eq), res(lower)}
            and set(pick_i.operands) == {res(pick), res(tie)}
            and list(value.operands) == [res(pick), va, vb]
            and list(index.operands) == [res(pick_i), ia, ib]
            and list(ret.operands) == [res(value), res(index)]
            and _compare_type(lower) in (None, "SIGNED", "UNSIGNED"))


def _direction(op: ir.Operation) -> str:
    from jaxlib.mlir.dialects import stablehlo

    return stablehlo.ComparisonDirectionAttr(op.attributes["comparison_direction"]).value


def _compare_type(op: ir.Operation) -> str | None:
    from jaxlib.mlir.dialects import stablehlo

    if "compare_type" not in op.attributes:
        return None
    return stablehlo.ComparisonTypeAttr(op.attributes["compare_type"]).value


def body_reducer(region: ir.Region) -> str | None:
    """The op name of a body `^bb(%a, %b): %r = op %a, %b; return %r`, else None."""
    body = region.blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) != 2 or list(ops[0].operands) != list(body.arguments):
        return None
    return ops[0].name


def reducer_op(op: ir.Operation) -> str:
    """The stablehlo op name a single-op reduce body applies."""
    body = op.regions[0].blocks[0]
    return [o.operation for o in body.operations][0].name


def identity_value(reducer: str, element_type: ir.Type):
    """The identity element of `reducer` for `element_type` (as a numpy scalar)."""
    from ..ir.types import numpy_dtype

    dtype = numpy_dtype(element_type)
    # (by the IR type: numpy does not count ml_dtypes' bfloat16 among its floating types)
    floating = isinstance(element_type, ir.FloatType)
    if reducer in ("sum", "stablehlo.add", "stablehlo.or"):
        return dtype.type(0)
    if reducer in ("stablehlo.multiply", "stablehlo.and"):
        return dtype.type(1)
    if reducer == "stablehlo.maximum":
        return dtype.type(-np.inf) if floating else (
            np.iinfo(dtype).min if np.issubdtype(dtype, np.integer) else dtype.type(0))
    if reducer == "stablehlo.minimum":
        return dtype.type(np.inf) if floating else (
            np.iinfo(dtype).max if np.issubdtype(dtype, np.integer) else dtype.type(1))
    raise ValueError(reducer)


def is_identity_init(init: ir.Value, reducer: str) -> bool:
    """Is `init` a constant scalar equal to the reducer's identity? (JAX often wraps
    the constant in a rank-0 broadcast_in_dim: looked through, as are reshapes.)"""
    init = through_reshapes(init)
    if not isinstance(init, ir.OpResult) or init.owner.operation.name != "stablehlo.constant":
        return False
    attr = init.owner.operation.attributes["value"]
    # Attributes are uniqued (and typed): one answer per constant and reducer, not one
    # numpy conversion per reduce op.
    key = (attr, reducer)
    found = _IDENTITY_MEMO.get(key)
    if found is None:
        # The memo holds attributes, and they their context: it keeps one context's
        # (a hit is always of the context it holds: a live context's attributes are
        # not freed, so no other attribute can share their address).
        context = attr.context
        if len(_IDENTITY_MEMO) > 4096 or context is not _IDENTITY_MEMO_CONTEXT[0]:
            _IDENTITY_MEMO.clear()
            _IDENTITY_MEMO_CONTEXT[0] = context
        found = _IDENTITY_MEMO[key] = _holds_identity(attr, reducer, init.type.element_type)
    return found


_IDENTITY_MEMO: dict[tuple[ir.Attribute, str], bool] = {}
_IDENTITY_MEMO_CONTEXT: list = [None]  # the context of the memo's attributes


def _holds_identity(attr: ir.Attribute, reducer: str, element_type: ir.Type) -> bool:
    try:
        value = np.array(ir.DenseElementsAttr(attr)).reshape(-1)
    except Exception:  # e.g. element types numpy cannot hold
        return False
    if value.size != 1:
        return False
    if isinstance(element_type, ir.ComplexType):
        value = [complex_splat(attr)]
    elif value.dtype == object:  # no numpy buffer for the element type (bf16): the splat's
        splat = ir.DenseElementsAttr(attr).get_splat_value()  # value as a Python float
        if not isinstance(splat, ir.FloatAttr):
            return False
        value = [splat.value]
    return bool(value[0] == identity_value(reducer, element_type))


def through_reshapes(value: ir.Value) -> ir.Value:
    """The value behind broadcast_in_dim / reshape ops of one element."""
    while isinstance(value, ir.OpResult) and value.owner.operation.name in (
            "stablehlo.broadcast_in_dim", "stablehlo.reshape"):
        source = value.owner.operation.operands[0]
        shape = ir.RankedTensorType(source.type).shape
        if any(n != 1 for n in shape):
            break
        value = source
    return value
