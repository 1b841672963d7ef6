"""The op sharding rule table: one entry per op family (see rules.py for the model).

Read it like a spec: each function states, with RuleBuilder calls, which dims of which
operands and results share a factor and of what kind. The reference is Shardy's own
registry as jaxlib ships it (`sdy-populate-op-sharding-rules`): for every op both know,
`rule.canonical()` agrees with the native rule, except at the entries marked
"DIFFERS FROM NATIVE", which say why (test/python/test_op_rules.py checks both).

Conventions used below:
  * shapes come from the builder (`b.operand_shapes`, `b.result_shapes`); attributes are
    read through jaxlib's attribute classes, never from printed IR;
  * "across every tensor" means every operand and result of rank > 0 (scalar operands,
    such as a select's predicate or a pad's padding value, take no factor);
  * a dim that no factor covers gets its own factor of size 1 when the rule is built
    (RuleBuilder.build), as in Shardy.

Ops that need no rule by design are listed in WITHOUT_RULE (sources such as constants,
and token/IO ops); propagation handles region ops (while, case, if,
optimization_barrier) and sdy ops structurally.
"""
from __future__ import annotations

from math import gcd

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo as hlo

from ..sharding.op_rule import RULE_ATTR, FactorKind, OpRule, RuleBuilder, RuleTable, shape_of

PASS = FactorKind.PASS_THROUGH
REDUCTION = FactorKind.REDUCTION
REPLICATE = FactorKind.NEED_REPLICATION
PERMUTE = FactorKind.PERMUTATION


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


RULES = _MemoTable()


# --------------------------------------------------------------------------- helpers


def _ints(op, name: str) -> list[int]:
    """An `array<i64: ...>` attribute."""
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def _ints_or(op, name: str, default: list[int]) -> list[int]:
    attrs = op.attributes
    return list(ir.DenseI64ArrayAttr(attrs[name])) if name in attrs else default


def _int(op, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def _int_or(op, name: str, default: int) -> int:
    attrs = op.attributes
    return ir.IntegerAttr(attrs[name]).value if name in attrs else default


def _across(b: RuleBuilder, dim: int, size: int, kind: FactorKind = PASS,
            blocked: bool = False) -> int:
    """One factor on `dim` of every tensor of rank > 0 (Shardy's "pointwise" factor)."""
    return b.factor(size, {i: dim for i, s in enumerate(b.operand_shapes) if s},
                    {i: dim for i, s in enumerate(b.result_shapes) if s}, kind, blocked)


def _defining_op(value: ir.Value):
    """The op producing `value`, or None for a block argument."""
    return value.owner if isinstance(value, ir.OpResult) else None


# --------------------------------------------------------------------------- elementwise

ELEMENTWISE = (
    # unary
    "stablehlo.abs", "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.count_leading_zeros",
    "stablehlo.convert", "stablehlo.cosine", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
    "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic",
    "stablehlo.negate", "stablehlo.not", "stablehlo.popcnt", "stablehlo.real",
    "stablehlo.reduce_precision", "stablehlo.round_nearest_afz",
    "stablehlo.round_nearest_even", "stablehlo.rsqrt", "stablehlo.sign", "stablehlo.sine",
    "stablehlo.sqrt", "stablehlo.tan", "stablehlo.tanh",
    # binary
    "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.compare",
    "stablehlo.complex", "stablehlo.divide", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.multiply", "stablehlo.or", "stablehlo.power", "stablehlo.remainder",
    "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
    "stablehlo.shift_right_logical", "stablehlo.subtract", "stablehlo.xor",
    # ternary, whose predicate / bounds may be scalars (those take no factor)
    "stablehlo.select", "stablehlo.clamp",
    # collectives that keep the shape: each element stays where it is
    "stablehlo.all_reduce", "stablehlo.collective_permute",
    "stablehlo.collective_broadcast", "stablehlo.cross-replica-sum",
    # a sharding constraint relates its operand and result dim by dim
    "sdy.sharding_constraint",
)

# DIFFERS FROM NATIVE: jaxlib's registry knows no chlo op (it warns "unknown to SDY
# sharding rule registry" and propagation stops there): XLA lowers chlo away before its
# own propagation sees the module. JAX emits these ops as-is (exact gelu's erf, lgamma,
# digamma, asinh, ...) and shardpy propagates on that module, so we give them the rule of
# what they lower to: elementwise (native has it for custom_call @mhlo.erf, for one).
CHLO_ELEMENTWISE = (
    "chlo._asin_acos_kernel", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh",
    "chlo.atan", "chlo.atanh", "chlo.bessel_i1e", "chlo.conj", "chlo.cosh",
    "chlo.digamma", "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf",
    "chlo.is_neg_inf", "chlo.is_pos_inf", "chlo.lgamma", "chlo.mulhi", "chlo.next_after",
    "chlo.polygamma", "chlo.sinh", "chlo.square", "chlo.tan", "chlo.zeta",
)


@RULES.rule(*ELEMENTWISE, *CHLO_ELEMENTWISE)
def elementwise(op, b: RuleBuilder):
    """Element (i, j, ...) of the result needs element (i, j, ...) of each operand: one
    pass-through factor per dim, shared by every operand and result of the same rank."""
    if b.result_shapes:
        b.pointwise(b.result_shapes[0])


RULES.shape_only.add(elementwise)


@RULES.rule("stablehlo.bitcast_convert")
def bitcast_convert(op, b: RuleBuilder):
    """Same element width: elementwise. Otherwise the narrower side has one extra minor
    dim holding the pieces of one wide element; it must stay whole (need-replication)."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    common = src if len(src) <= len(dst) else dst
    for d, size in enumerate(common):
        b.factor(size, {0: d}, {0: d})
    if len(dst) > len(src):
        b.factor(dst[-1], results={0: len(dst) - 1}, kind=REPLICATE)
    elif len(src) > len(dst):
        b.factor(src[-1], operands={0: len(src) - 1}, kind=REPLICATE)


# --------------------------------------------------------------------------- layout


@RULES.rule("stablehlo.broadcast_in_dim")
def broadcast_in_dim(op, b: RuleBuilder):
    """Each result dim that comes from an operand dim of the same size shares its factor.
    A new result dim, or one that stretches a size-1 operand dim, gets its own factor;
    the stretched size-1 operand dim gets a separate size-1 factor."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    operand_dim = {out: d for d, out in enumerate(_ints(op, "broadcast_dimensions"))}
    for out, size in enumerate(dst):
        d = operand_dim.get(out)
        if d is not None and src[d] == size:
            b.factor(size, {0: d}, {0: out})
            continue
        if d is not None:  # size 1 expanded in place
            b.factor(1, operands={0: d})
        b.factor(size, results={0: out})


@RULES.rule("stablehlo.transpose")
def transpose(op, b: RuleBuilder):
    """Result dim i is operand dim permutation[i]."""
    src = b.operand_shapes[0]
    for out, d in enumerate(_ints(op, "permutation")):
        b.factor(src[d], {0: d}, {0: out})


@RULES.rule("stablehlo.reshape")
def reshape(op, b: RuleBuilder):
    """Walk both shapes major to minor, cutting them into common factors: a dim that is
    split (16 -> 4x4) or merged (4x4 -> 16) is a compound dim of several factors. Where
    the next chunks of the two sides differ (6x4 -> 4x6), they share their greatest
    common divisor (2) and each side gets factors of its own (3; 2) until the running
    products meet again (3x5 -> 5x3 shares nothing). Size-1 dims have their own factor.
    No rule for an empty tensor."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    if 0 in src:
        return False
    i = j = 0                  # current operand / result dim
    src_seen = dst_seen = 1    # product of the dims entered so far (current one included)
    src_done = dst_done = 1    # product of the factors given out so far

    def catch_up(rest: int, behind: int, ahead: int, common: int) -> int:
        """The next factor for the side whose factors lag behind the other side's."""
        if ahead % behind == 0 and rest % (ahead // behind) == 0:
            return ahead // behind      # meets the other side exactly
        if rest > common:
            return rest // common       # keeps the common part for a shared factor
        return rest

    while i < len(src) or j < len(dst):
        if i < len(src) and src[i] == 1:
            b.factor(1, operands={0: i})
            i += 1
            continue
        if j < len(dst) and dst[j] == 1:
            b.factor(1, results={0: j})
            j += 1
            continue
        if i < len(src) and src_seen == src_done:
            src_seen *= src[i]
        if j < len(dst) and dst_seen == dst_done:
            dst_seen *= dst[j]
        src_rest, dst_rest = src_seen // src_done, dst_seen // dst_done
        common = gcd(src_rest, dst_rest)
        if src_done == dst_done:
            if common > 1:
                b.factor(common, {0: i}, {0: j})
                src_done *= common
                dst_done *= common
            else:
                b.factor(src_rest, operands={0: i})
                b.factor(dst_rest, results={0: j})
                src_done *= src_rest
                dst_done *= dst_rest
        elif src_done < dst_done:
            size = catch_up(src_rest, src_done, dst_done, common)
            b.factor(size, operands={0: i})
            src_done *= size
        else:
            size = catch_up(dst_rest, dst_done, src_done, common)
            b.factor(size, results={0: j})
            dst_done *= size
        if i < len(src) and src_seen == src_done:
            i += 1
        if j < len(dst) and dst_seen == dst_done:
            j += 1


# --------------------------------------------------------------------------- contractions


@RULES.rule("stablehlo.dot_general")
def dot_general(op, b: RuleBuilder):
    """Batch dims: in lhs, rhs and result. Free dims of lhs, then of rhs: in that
    operand and the result. Contracting dims: in both operands, summed (reduction)."""
    dn = hlo.DotDimensionNumbers(op.attributes["dot_dimension_numbers"])
    lhs_batch, rhs_batch = dn.lhs_batching_dimensions, dn.rhs_batching_dimensions
    lhs_contract, rhs_contract = dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions
    lhs, rhs = b.operand_shapes
    out = 0
    for l, r in zip(lhs_batch, rhs_batch):
        b.factor(lhs[l], {0: l, 1: r}, {0: out})
        out += 1
    for operand, shape, skip in ((0, lhs, (*lhs_batch, *lhs_contract)),
                                 (1, rhs, (*rhs_batch, *rhs_contract))):
        for d, size in enumerate(shape):
            if d not in skip:
                b.factor(size, {operand: d}, {0: out})
                out += 1
    for l, r in zip(lhs_contract, rhs_contract):
        b.factor(lhs[l], {0: l, 1: r}, kind=REDUCTION)


@RULES.rule("stablehlo.dot")
def dot(op, b: RuleBuilder):
    """Vector or matrix operands: lhs rows and rhs columns (when matrices) reach the
    result; lhs's last dim and rhs's first are contracted."""
    lhs, rhs = b.operand_shapes
    out = 0
    if len(lhs) == 2:
        b.factor(lhs[0], {0: 0}, {0: out})
        out += 1
    if len(rhs) == 2:
        b.factor(rhs[1], {1: 1}, {0: out})
    b.factor(rhs[0], {0: len(lhs) - 1, 1: 0}, kind=REDUCTION)


@RULES.rule("stablehlo.convolution")
def convolution(op, b: RuleBuilder):
    """Batch: lhs and result. Each spatial lhs dim is cut into a number-of-windows factor
    (shared with the result; a permutation, as windows overlap at shard edges) and a
    window-size factor (shared with the kernel; reduced), the larger one major. Input
    features are contracted with the kernel's; output features come from the kernel.
    Feature groups split lhs and kernel-output features into (group, per-group) factors;
    batch groups split lhs batch and kernel-output features the same way."""
    dn = hlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    lhs, rhs = b.operand_shapes
    out = b.result_shapes[0]
    feature_groups = _int_or(op, "feature_group_count", 1)
    batch_groups = _int_or(op, "batch_group_count", 1)
    in_batch, in_feature = dn.input_batch_dimension, dn.input_feature_dimension
    k_in, k_out = dn.kernel_input_feature_dimension, dn.kernel_output_feature_dimension
    out_batch, out_feature = dn.output_batch_dimension, dn.output_feature_dimension

    if batch_groups > 1:
        b.factor(batch_groups, {0: in_batch, 1: k_out}, {0: out_feature})
    b.factor(out[out_batch], {0: in_batch}, {0: out_batch})
    for l, k, o in zip(dn.input_spatial_dimensions, dn.kernel_spatial_dimensions,
                       dn.output_spatial_dimensions):
        left = lhs[l]  # what the lhs dim still has to give out
        windows = (out[o], {0: l}, {0: o}, PERMUTE)
        window = (rhs[k], {0: l, 1: k}, {}, REDUCTION)
        for size, operands, results, kind in ((windows, window) if out[o] >= rhs[k]
                                              else (window, windows)):
            size = min(left, size)
            if size > 1:
                b.factor(size, operands, results, kind)
                left //= size
    if feature_groups > 1:
        b.factor(feature_groups, {0: in_feature, 1: k_out}, {0: out_feature})
    b.factor(rhs[k_in], {0: in_feature, 1: k_in}, kind=REDUCTION)
    b.factor(out[out_feature] // (batch_groups * feature_groups), {1: k_out},
             {0: out_feature})


# --------------------------------------------------------------------------- reductions


@RULES.rule("stablehlo.reduce")
def reduce(op, b: RuleBuilder):
    """Kept dims: in every input and result. Reduced dims: in the inputs only
    (reduction), for any number of inputs (argmax reduces values and indices together).
    Init values are scalars."""
    reduced = set(_ints(op, "dimensions"))
    n = len(b.result_shapes)
    out = 0
    for d, size in enumerate(b.operand_shapes[0]):
        inputs = {i: d for i in range(n)}
        if d in reduced:
            b.factor(size, inputs, kind=REDUCTION)
        else:
            b.factor(size, inputs, {i: out for i in range(n)})
            out += 1


def _windowed_dims(op, rank: int) -> list[bool]:
    """Per dim: does a window, stride or padding move data along it? (Base dilation
    alone does not count, as in Shardy.)"""
    windows = _ints(op, "window_dimensions")
    strides = _ints_or(op, "window_strides", [1] * rank)
    attrs = op.attributes
    padding = list(ir.DenseIntElementsAttr(attrs["padding"])) if "padding" in attrs \
        else [0] * (2 * rank)
    return [windows[d] != 1 or strides[d] != 1 or padding[2 * d] != 0
            or padding[2 * d + 1] != 0 for d in range(rank)]


@RULES.rule("stablehlo.reduce_window")
def reduce_window(op, b: RuleBuilder):
    """One factor per dim, sized like the result (number of windows), shared by inputs
    and results; a permutation where windows overlap or move (window, stride, padding).
    Init values are scalars."""
    out = b.result_shapes[0]
    n = len(b.result_shapes)
    for d, windowed in enumerate(_windowed_dims(op, len(out))):
        b.factor(out[d], {i: d for i in range(n)}, {i: d for i in range(n)},
                 PERMUTE if windowed else PASS)


@RULES.rule("stablehlo.select_and_scatter")
def select_and_scatter(op, b: RuleBuilder):
    """Unwindowed dims: one factor for operand, source and result. Windowed dims: one
    permutation factor (sized like the operand) for operand, source and result.
    DIFFERS FROM NATIVE: Shardy gives the source dim (one element per window) a
    separate need-replication factor, so a max-pool gradient gathers its cotangent;
    shardpy computes windowed dims sharded alike on all three (halos of operand and
    source, lowering_windowed.py), so the source's sharding propagates with them."""
    operand = b.operand_shapes[0]
    for d, windowed in enumerate(_windowed_dims(op, len(operand))):
        b.factor(operand[d], {0: d, 1: d}, {0: d}, PERMUTE if windowed else PASS)


# --------------------------------------------------------------------------- data movement


def _concat_moves_neighbours(op) -> bool:
    """True when the concatenated pieces are slices of one array, or all slices: then
    the concat only shifts data between neighbouring shards (e.g. a roll or a halo);
    otherwise pieces of unrelated arrays must be assembled whole."""
    all_slices, any_slice, sources = True, False, set()
    for value in op.operands:
        producer = _defining_op(value)
        if producer is not None and producer.name == "stablehlo.slice":
            any_slice = True
            value = producer.operands[0]
        else:
            all_slices = False
        sources.add(value)
    return all_slices or (any_slice and len(sources) == 1)


@RULES.rule("stablehlo.concatenate")
def concatenate(op, b: RuleBuilder):
    """Dims other than the concat dim: one factor across operands and result. The concat
    dim: a permutation when every piece is a slice, or the pieces are one array and
    slices of it; else need-replication."""
    dim = _int(op, "dimension")
    concat_kind = PERMUTE if _concat_moves_neighbours(op) else REPLICATE
    for d, size in enumerate(b.result_shapes[0]):
        _across(b, d, size, concat_kind if d == dim else PASS)


@RULES.rule("stablehlo.slice")
def slice_(op, b: RuleBuilder):
    """One factor per dim, sized like the operand; a sliced dim is a permutation (the
    kept elements move to other shards)."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        b.factor(size, {0: d}, {0: d}, PASS if size == dst[d] else PERMUTE)


@RULES.rule("stablehlo.pad")
def pad(op, b: RuleBuilder):
    """One factor per dim, sized like the operand; a padded dim is a permutation.
    DIFFERS FROM NATIVE: Shardy calls a dim padded when its size changes, so a shift
    (low = -k, high = +k) counts as pass-through although every element moves by k;
    we call a dim padded when any of its paddings is non-zero."""
    src = b.operand_shapes[0]
    low, high = _ints(op, "edge_padding_low"), _ints(op, "edge_padding_high")
    interior = _ints(op, "interior_padding")
    for d, size in enumerate(src):
        moved = low[d] != 0 or high[d] != 0 or interior[d] != 0
        b.factor(size, {0: d}, {0: d}, PERMUTE if moved else PASS)


@RULES.rule("stablehlo.reverse")
def reverse(op, b: RuleBuilder):
    """Elementwise, but reversed dims are permutations (shard k swaps with n-1-k)."""
    reversed_dims = set(_ints(op, "dimensions"))
    for d, size in enumerate(b.result_shapes[0]):
        b.factor(size, {0: d}, {0: d}, PERMUTE if d in reversed_dims else PASS)


@RULES.rule("stablehlo.dynamic_slice")
def dynamic_slice(op, b: RuleBuilder):
    """Unsliced dims: pass-through. A sliced dim starts at a runtime offset: it must be
    whole, and propagation may not carry a sharding across it (blocked). Shardy sizes
    that factor like the operand dim, on the result too."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        if size == dst[d]:
            _across(b, d, size)
        else:
            _across(b, d, size, REPLICATE, blocked=True)


@RULES.rule("stablehlo.dynamic_update_slice")
def dynamic_update_slice(op, b: RuleBuilder):
    """Dims the update covers fully: one factor for operand, update and result. Partly
    updated dims: operand and result stay sharded alike (each shard updates what falls
    in it), the update has its own factor and must be whole."""
    operand, update = b.operand_shapes[0], b.operand_shapes[1]
    for d, size in enumerate(operand):
        if size == update[d]:
            b.factor(size, {0: d, 1: d}, {0: d})
        else:
            b.factor(size, {0: d}, {0: d})
            b.factor(update[d], {1: d}, kind=REPLICATE)


# --------------------------------------------------------------------------- gather / scatter


def _gather_scatter(b: RuleBuilder, add, *, scatter: bool, operand, slices, indices,
                    index_vector_dim: int, offset_dims, collapsed_dims, operand_batching,
                    indices_batching, batch_kind: FactorKind = PASS) -> None:
    """Factors shared by gather and scatter. `slices` is the gather result / scatter
    update; `add(operand_dim, indices_dim, slices_dim, size, kind, blocked)` adds one
    factor (a dim of None: not in that tensor). `batch_kind` is the kind of batch dims
    that only indices and slices have."""
    offset_dims, collapsed_dims = set(offset_dims), list(collapsed_dims)
    skipped = set(collapsed_dims) | set(operand_batching)
    operand_dim = 0
    batch_pos = 0
    for s, size in enumerate(slices):
        if s in offset_dims:
            # A window dim: walks the operand dims that are neither collapsed nor batch.
            while operand_dim in skipped:
                operand_dim += 1
            full = operand[operand_dim]
            if full == size:
                add(operand_dim, None, s, size, PASS, False)
            elif scatter:
                # A partial window: operand and update dims must each be whole.
                add(operand_dim, None, None, full, REPLICATE, False)
                add(None, None, s, size, REPLICATE, False)
            elif size == 1:
                # One element per window: keep the operand dim sharded, all-reduce after.
                add(operand_dim, None, None, full, REDUCTION, False)
                add(None, None, s, size, REPLICATE, False)
            else:
                add(operand_dim, None, s, full, REPLICATE, True)
            operand_dim += 1
        else:
            # A batch dim of the indices (skipping the index vector dim).
            indices_dim = batch_pos if batch_pos < index_vector_dim else batch_pos + 1
            batch_pos += 1
            if indices_dim in indices_batching:
                explicit = operand_batching[list(indices_batching).index(indices_dim)]
                add(explicit, indices_dim, s, size, PASS, False)
            else:
                add(None, indices_dim, s, size, batch_kind, False)
    for d in collapsed_dims:
        # Gather: a shard holds some of the indexed rows; the others give zeros, so the
        # result is all-reduced. Scatter: each shard updates the rows it holds.
        add(d, None, None, operand[d], PASS if scatter else REDUCTION, False)
    if index_vector_dim < len(indices):
        add(None, index_vector_dim, None, indices[index_vector_dim], REPLICATE, False)


@RULES.rule("stablehlo.gather")
def gather(op, b: RuleBuilder):
    """Operand dims, indices batch dims and result dims, related through the gather
    dimension numbers (see _gather_scatter)."""
    dn = hlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])

    def add(operand_dim, indices_dim, result_dim, size, kind, blocked):
        operands = {}
        if operand_dim is not None:
            operands[0] = operand_dim
        if indices_dim is not None:
            operands[1] = indices_dim
        b.factor(size, operands, {} if result_dim is None else {0: result_dim}, kind,
                 blocked)

    _gather_scatter(
        b, add, scatter=False, operand=b.operand_shapes[0], slices=b.result_shapes[0],
        indices=b.operand_shapes[1], index_vector_dim=dn.index_vector_dim,
        offset_dims=dn.offset_dims, collapsed_dims=dn.collapsed_slice_dims,
        operand_batching=dn.operand_batching_dims,
        indices_batching=dn.start_indices_batching_dims)


SCATTER_REDUCERS = frozenset({"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum",
                              "stablehlo.minimum", "stablehlo.or", "stablehlo.and"})


def _scatter_combines_by_reduction(op, n: int) -> bool:
    """Does the update computation fold every update into its input with one and the
    same reducer (add, multiply, max, min, or, and)? Then updates that land on one
    element from different shards can be combined by an all-reduce."""
    block = op.regions[0].blocks[0]
    args = block.arguments
    terminator = block.operations[len(block.operations) - 1]
    reducers = set()
    for i, value in enumerate(terminator.operands):
        producer = _defining_op(value)
        if producer is None or producer.name not in SCATTER_REDUCERS:
            return False
        operands = list(producer.operands)
        if len(operands) != 2 or not ((operands[0] == args[i] and operands[1] == args[n + i])
                                      or (operands[0] == args[n + i]
                                          and operands[1] == args[i])):
            return False
        reducers.add(producer.name)
    return len(reducers) == 1


@RULES.rule("stablehlo.scatter")
def scatter(op, b: RuleBuilder):
    """Like gather with the roles turned round: the inputs and results take the operand
    dims, the updates the slice dims (see _gather_scatter). Batch dims that only indices
    and updates have are a reduction when the update computation is a reducer (updates
    from several shards are all-reduced), else they must be whole."""
    dn = hlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    n = len(b.result_shapes)

    def add(input_dim, indices_dim, update_dim, size, kind, blocked):
        operands = {}
        if input_dim is not None:
            operands.update({i: input_dim for i in range(n)})
        if indices_dim is not None:
            operands[n] = indices_dim
        if update_dim is not None:
            operands.update({n + 1 + i: update_dim for i in range(n)})
        results = {} if input_dim is None else {i: input_dim for i in range(n)}
        b.factor(size, operands, results, kind, blocked)

    _gather_scatter(
        b, add, scatter=True, operand=b.operand_shapes[0], slices=b.operand_shapes[n + 1],
        indices=b.operand_shapes[n], index_vector_dim=dn.index_vector_dim,
        offset_dims=dn.update_window_dims, collapsed_dims=dn.inserted_window_dims,
        operand_batching=dn.input_batching_dims,
        indices_batching=dn.scatter_indices_batching_dims,
        batch_kind=REDUCTION if _scatter_combines_by_reduction(op, n) else REPLICATE)


# --------------------------------------------------------------------------- sort, fft, linalg


@RULES.rule("stablehlo.sort")
def sort(op, b: RuleBuilder):
    """Batch dims: pass-through across inputs and results. The sort dim must be whole;
    when it is the only dim of size > 1, propagation does not cross it either."""
    shape = b.operand_shapes[0]
    dim = _int_or(op, "dimension", -1) % len(shape)
    only_dim = all(size == 1 for d, size in enumerate(shape) if d != dim)
    for d, size in enumerate(shape):
        if d == dim:
            _across(b, d, size, REPLICATE, blocked=only_dim)
        else:
            _across(b, d, size)


@RULES.rule("stablehlo.fft")
def fft(op, b: RuleBuilder):
    """Leading dims are batch dims; the transformed (trailing) dims must be whole. A
    real FFT changes the last dim's size: Shardy keeps one operand-sized factor there
    and blocks propagation along it."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    batch_rank = len(src) - len(_ints(op, "fft_length"))
    for d, size in enumerate(src):
        if d < batch_rank:
            _across(b, d, size)
        else:
            _across(b, d, size, REPLICATE,
                    blocked=d == len(src) - 1 and src[-1] != dst[-1])


@RULES.rule("stablehlo.cholesky")
def cholesky(op, b: RuleBuilder):
    """Batch dims pass through; the two matrix dims must be whole."""
    shape = b.operand_shapes[0]
    for d, size in enumerate(shape):
        _across(b, d, size, PASS if d < len(shape) - 2 else REPLICATE)


@RULES.rule("stablehlo.triangular_solve")
def triangular_solve(op, b: RuleBuilder):
    """Solves op(a) @ x = b (left side) or x @ op(a) = b, with op(a) = a or its
    (conjugate) transpose. Batch dims pass through; each matrix dim links the operand
    dims the equation pairs up, and all must be whole."""
    a, rhs = b.operand_shapes
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        _across(b, d, a[d])
    transposed = hlo.TransposeAttr(op.attributes["transpose_a"]).value in (
        "TRANSPOSE", "ADJOINT")
    if ir.BoolAttr(op.attributes["left_side"]).value:
        a_free, a_contract = (cols, rows) if transposed else (rows, cols)
        b.factor(a[a_free], {0: a_free, 1: rows}, kind=REPLICATE)       # rows of b
        b.factor(rhs[cols], {1: cols}, {0: cols}, kind=REPLICATE)       # cols of x, b
        b.factor(a[a_contract], {0: a_contract}, {0: rows}, kind=REPLICATE)  # rows of x
    else:
        a_free, a_contract = (rows, cols) if transposed else (cols, rows)
        b.factor(rhs[rows], {1: rows}, {0: rows}, kind=REPLICATE)       # rows of x, b
        b.factor(a[a_free], {0: a_free, 1: cols}, kind=REPLICATE)       # cols of b
        b.factor(a[a_contract], {0: a_contract}, {0: cols}, kind=REPLICATE)  # cols of x


# --------------------------------------------------------------------------- random


@RULES.rule("stablehlo.rng_bit_generator")
def rng_bit_generator(op, b: RuleBuilder):
    """The state (operand and first result) must be whole and no sharding may flow
    between them (blocked); the generated bits have free factors of their own."""
    for d, size in enumerate(b.operand_shapes[0]):
        b.factor(size, {0: d}, {0: d}, REPLICATE, blocked=True)
    for d, size in enumerate(b.result_shapes[1]):
        b.factor(size, results={1: d})


# --------------------------------------------------------------------------- collectives


def _gathering_collective(dim_attr: str):
    """all_gather / reduce_scatter: the gathered or scattered dim differs in size
    between operands and results; each side has its own factor there, and both must be
    whole. The other dims pass through."""

    def rule(op, b: RuleBuilder):
        dim = _int(op, dim_attr)
        n = len(b.result_shapes)
        src, dst = b.operand_shapes[0], b.result_shapes[0]
        for d, size in enumerate(src):
            operands = {i: d for i in range(n)}
            if d == dim:
                b.factor(size, operands, kind=REPLICATE)
                b.factor(dst[d], results=operands, kind=REPLICATE)
            else:
                b.factor(size, operands, operands)

    rule.__name__ = rule.__qualname__ = f"collective_on_{dim_attr}"
    return rule


RULES.rule("stablehlo.all_gather")(_gathering_collective("all_gather_dim"))
RULES.rule("stablehlo.reduce_scatter")(_gathering_collective("scatter_dimension"))


@RULES.rule("stablehlo.all_to_all")
def all_to_all(op, b: RuleBuilder):
    """The split and concat dims change size: operands and results have a factor of
    their own there, and all must be whole. The other dims pass through."""
    moved = {_int(op, "split_dimension"), _int(op, "concat_dimension")}
    n = len(b.result_shapes)
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        tensors = {i: d for i in range(n)}
        if d in moved:
            b.factor(size, tensors, kind=REPLICATE)
            b.factor(dst[d], results=tensors, kind=REPLICATE)
        else:
            b.factor(size, tensors, tensors)


# --------------------------------------------------------------------------- custom calls


def _pointwise(op, b: RuleBuilder):
    if b.result_shapes:
        b.pointwise(b.result_shapes[0])


def _eigh(op, b: RuleBuilder):
    """(eigenvectors, eigenvalues) = eigh(a): batch dims everywhere; a's rows go with the
    eigenvectors' rows, a's columns with their columns and with the eigenvalues."""
    a = b.operand_shapes[0]
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        _across(b, d, a[d])
    b.factor(a[rows], {0: rows}, {0: rows})
    b.factor(a[cols], {0: cols}, {0: cols, 1: rows})


def _qr(op, b: RuleBuilder):
    """(q-ish, taus) = qr(a): batch dims everywhere; the matrix dims and the taus must be
    whole."""
    a, taus = b.operand_shapes[0], b.result_shapes[1]
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        _across(b, d, a[d])
    b.factor(a[rows], {0: rows}, {0: rows}, REPLICATE)
    b.factor(a[cols], {0: cols}, {0: cols}, REPLICATE)
    b.factor(taus[rows], results={1: rows}, kind=REPLICATE)


def _householder_product(op, b: RuleBuilder):
    """q = householder_product(a, taus): batch dims everywhere; the matrix dims and the
    taus must be whole."""
    a, taus = b.operand_shapes
    rows, cols = len(a) - 2, len(a) - 1
    for d in range(rows):
        _across(b, d, a[d])
    b.factor(a[rows], {0: rows}, {0: rows}, REPLICATE)
    b.factor(a[cols], {0: cols}, {0: cols}, REPLICATE)
    b.factor(taus[rows], {1: rows}, kind=REPLICATE)


def _top_k(op, b: RuleBuilder):
    """(values, indices) = top_k(x): the leading dims pass through; the last dim (the
    one selected along, shortened to k) must be whole, blocked, with one operand-sized
    factor, also when k is its whole size (the values are reordered along it).
    DIFFERS FROM NATIVE: native keeps a last dim of unchanged size (k = its size)
    pass-through, which computes a top_k of each shard."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        if d < len(src) - 1:
            _across(b, d, size)
        else:
            _across(b, d, size, REPLICATE, blocked=True)


def _approx_top_k(op, b: RuleBuilder):
    """(values, indices) = approx_top_k(x, iota, init, init_index): kept dims pass
    through; on the reduced dim, x and iota share one factor, the results another that
    must be whole and blocked."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        if size == dst[d]:
            _across(b, d, size)
        else:
            b.factor(size, {0: d, 1: d})
            b.factor(dst[d], results={0: d, 1: d}, kind=REPLICATE, blocked=True)


def _x64_combine(op, b: RuleBuilder):
    """Elementwise; but when it feeds an rng_bit_generator (whose state must stay
    replicated and cannot be resharded), nothing may propagate through it."""
    feeds_rng = any(use.owner.name == "stablehlo.rng_bit_generator"
                    for use in op.results[0].uses)
    for d, size in enumerate(b.result_shapes[0]):
        _across(b, d, size, REPLICATE if feeds_rng else PASS, blocked=feeds_rng)


CUSTOM_CALLS = {
    **dict.fromkeys((
        "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
        "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular",
        "LayoutConstraint", "mhlo.erf", "MoveToDevice", "MoveToHost", "X64SplitHigh",
        "X64SplitLow", "xla.megascale.provide_metadata"), _pointwise),
    "Eigh": _eigh,
    "Qr": _qr,
    "QrDecompositionBlock": _qr,
    "ProductOfElementaryHouseholderReflectors": _householder_product,
    "mhlo.topk": _top_k,
    "ApproxTopK": _approx_top_k,
    "PartialReduce": _approx_top_k,
    "X64Combine": _x64_combine,
}
"""Custom call targets with a rule, as in Shardy. Any other target (callbacks, Mosaic
kernels, GSPMD's @Sharding, lapack/cusolver calls...) has none."""


@RULES.rule("stablehlo.custom_call")
def custom_call(op, b: RuleBuilder):
    """By call target (CUSTOM_CALLS); no rule for unknown targets."""
    rule = CUSTOM_CALLS.get(ir.StringAttr(op.attributes["call_target_name"]).value)
    if rule is None:
        return False
    return rule(op, b)


# DIFFERS FROM NATIVE: native has no chlo rules (see CHLO_ELEMENTWISE); chlo.top_k is
# what XLA turns into custom_call @mhlo.topk, so it gets that rule.
RULES.rule("chlo.top_k")(_top_k)


# --------------------------------------------------------------------------- no rule by design

WITHOUT_RULE = frozenset({
    # Sources: no operand to relate the result to; users shard the result.
    "stablehlo.constant", "stablehlo.iota", "stablehlo.partition_id",
    "stablehlo.replica_id", "stablehlo.create_token", "stablehlo.after_all",
    "chlo.constant", "chlo.constant_like", "sdy.constant",
    # Tuples and host/token IO: nothing to shard along.
    "stablehlo.get_tuple_element", "stablehlo.tuple", "stablehlo.infeed",
    "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv",
})
"""Ops that have no rule on purpose (Shardy gives none either); not worth a warning."""


@RULES.rule(*sorted(WITHOUT_RULE))
def without_rule(op, b: RuleBuilder):
    """No rule (see WITHOUT_RULE)."""
    return False


RULES.never.add(without_rule)

# Entries whose rule depends on more than the op's types and attributes: concatenate
# (are its pieces slices?), scatter (its update computation), custom_call (X64Combine
# looks at its users).
RULES.reads_ir.update({concatenate, scatter, custom_call})


def rule_for(op: ir.Operation, table: RuleTable | None = None) -> OpRule | None:
    """The op's rule: its own `sdy.sharding_rule` attribute if present, else the table's
    (default: shardpy's RULES)."""
    if RULE_ATTR in op.attributes:
        return OpRule.from_attr(op.attributes[RULE_ATTR])
    table = RULES if table is None else table
    return table.build(op, [shape_of(v.type) for v in op.operands],
                       [shape_of(r.type) for r in op.results])
