"""Indexed ops on local shards: gather, scatter, dynamic_slice, dynamic_update_slice.

Planning (shardpy-insert-reshards, through local_ops.LOCAL_OPS) and shardpy-to-local
for the four ops whose operands are addressed by runtime indices. Index values stay
global in the program; each device turns them into indices of its own shard.

StableHLO semantics this relies on (and keeps, value for value):
  gather, dynamic_slice, dynamic_update_slice  CLAMP start indices into the operand
      (start in [0, dim - slice size]); the clamp is always applied to the GLOBAL index
      first, then the shard's offset is subtracted, so an out-of-range global index
      reads/writes exactly the row the unpartitioned program does.
  scatter  SKIPS an update window whose start is out of bounds (XLA: the whole window);
      a device owning rows [off, off + n) of a dim shifts the index by -off, so an index
      outside its rows, or outside the operand, is out of its local bounds: skipped.

The cases, by how the operand is sharded:

  gather
    pass-through (offset dim taken whole): slice size becomes the local size
    explicit batching dims (with indices' batching dims sharded alike): as is
    indices' batch dims: each device gathers for its indices
    collapsed dims / size-1 window dims (a REDUCTION factor, e.g. a vocab-sharded
      embedding table): global start clamped to [0, dim-1], shifted by the shard's
      offset, rows outside the shard masked to zero: the result is a partial sum
      (unreduced; an all_reduce follows where a consumer needs it whole). The table
      is never gathered.
  scatter
    pass-through window dims, explicit batching dims: as is
    inserted window dims: each device updates the rows it holds (indices clamped to
      [-1, dim] globally, then shifted: in bounds locally iff in this shard)
    update batch dims (a REDUCTION factor when the body is one reducer): each device
      scatters its updates; the operand's initial value must count once:
        add       the operand is made unreduced on those axes (kept on one device,
                  zero on the others) and the result stays unreduced (summed later)
        max, min, and, or   idempotent: scatter into the operand, then an all_reduce
                  with the same reducer
        multiply  the operand on one device, the identity on the others, then an
                  all_reduce(multiply)
  dynamic_slice
    dims taken whole: local size, start is 0 anyway
    sliced dims: either the operand is all-gathered on that dim and sliced, or each
      device slices its part of the window out of its shard padded with zeros (a
      partial sum of the window, all-reduced or reduce-scattered after): insert-
      reshards weighs both by bytes moved (all_gather of the operand dim vs all_reduce
      of the slice) and takes the cheaper (the slice is cheaper when
      2 * slice < operand dim, e.g. one layer of a stacked weight; a result wanted
      sharded on that dim is reduce-scattered instead, cheaper whenever slice < dim)
  dynamic_update_slice
    dims the update covers: as is; partly updated unsharded dims: as is
    partly updated sharded dims: the update stays whole on every device; each device
      writes the part of the window that falls in its shard (the update shifted to the
      shard's frame, a select where the window covers it)

`indices_are_sorted` / `unique_indices`: slicing indices along batch dims keeps both
true statements (a device's indices are a subsequence, in order, of sorted unique
indices); rewriting index values (clamp + shift, non-strictly monotone per component)
may break both, so both are set to false where indices are rewritten.

Start indices of every dynamic_slice this emits or lowers are in range explicitly
(clamped before the op): XLA (jaxlib 0.10.2, CPU) folds dynamic_slice(dynamic_slice(
x, a), b) into dynamic_slice(x, a + b) with ONE clamp, which is wrong when `a` or `b`
is out of range, and partitioned programs put dynamic slices behind dynamic slices
(all_slice of a result, the shifted update of dynamic_update_slice).
"""
from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..sharding.device_groups import group_index
from ..ir.diagnostics import ShardpyError
from ..ir.utils import after, zero_attr
from .reducers import identity_value, scatter_reducer
from ..sharding.op_rule import FactorKind, OpRule
from ..sharding.model import TensorSharding

IDEMPOTENT_REDUCERS = frozenset({"stablehlo.maximum", "stablehlo.minimum", "stablehlo.or",
                                 "stablehlo.and"})


# --------------------------------------------------------------------------- planning


def _summable(element_type: ir.Type) -> bool:
    """Can partial values of this type be summed (zeros elsewhere)? Not booleans."""
    if isinstance(element_type, ir.IntegerType):
        return ir.IntegerType(element_type).width > 1
    return isinstance(element_type, (ir.FloatType, ir.ComplexType))


def gather_combine(op: ir.Operation) -> str | None:
    """A gather on a sharded collapsed dim gives zeros for rows of other shards: a sum."""
    return "sum" if _summable(op.results[0].type.element_type) else None


def dynamic_slice_combine(op: ir.Operation) -> str | None:
    return "sum" if _summable(op.results[0].type.element_type) else None


def scatter_combine(op: ir.Operation) -> str | None:
    reducer = scatter_reducer(op)
    if reducer is None:
        return None
    if reducer == "stablehlo.add":
        return "sum" if all(_summable(r.type.element_type) for r in op.results) else None
    if any(isinstance(r.type.element_type, ir.ComplexType) for r in op.results):
        return None  # no max/min, and a complex identity we do not build
    return "self-combining"


def scatter_counted_once(op: ir.Operation) -> tuple[int, ...]:
    """The inputs of a summing scatter: made unreduced on its update-batch axes, so the
    initial value is counted once in the partial results."""
    return tuple(range(len(op.results)))


def dynamic_slice_rule(op: ir.Operation, rule: OpRule) -> OpRule:
    """The rule insert-reshards places a dynamic_slice with: a sliced dim is a
    REDUCTION factor of the operand alone (kept sharded: each device slices its part of
    the window, the partial windows are summed) and a whole factor of the result, in
    place of the NEED_REPLICATION factor the two share in the propagation rule."""
    if len(rule.operands) < 1 or len(rule.results) != 1:
        return rule
    src = op.operands[0].type.shape
    dst = op.results[0].type.shape
    sizes, kinds = list(rule.factor_sizes), list(rule.kinds)
    result_dims = [list(dim) for dim in rule.results[0]]
    for d in range(len(src)):
        if src[d] == dst[d] or len(rule.operands[0][d]) != 1:
            continue
        f = rule.operands[0][d][0]
        if kinds[f] is not FactorKind.NEED_REPLICATION or result_dims[d] != [f]:
            continue
        kinds[f] = FactorKind.REDUCTION
        result_dims[d] = [len(sizes)]
        sizes.append(dst[d])
        kinds.append(FactorKind.NEED_REPLICATION)
    results = (tuple(tuple(dim) for dim in result_dims),)
    return OpRule(tuple(sizes), rule.operands, results, tuple(kinds), rule.blocked,
                  rule.is_custom)


# --------------------------------------------------------------------------- IR helpers


def _tensor(shape, element_type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element_type)


def _scalar(value, element_type) -> ir.Value:
    t = _tensor([], element_type)
    if isinstance(element_type, ir.IntegerType):
        attr = ir.IntegerAttr.get(element_type, int(value))
    else:
        attr = ir.FloatAttr.get(element_type, float(value))
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(t, attr)).result


def _splat(value_type: ir.RankedTensorType, attr: ir.Attribute) -> ir.Value:
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(value_type, attr)).result


def _zeros(value_type: ir.RankedTensorType) -> ir.Value:
    return _splat(value_type, zero_attr(value_type.element_type))


def _identity(value_type: ir.RankedTensorType, reducer: str) -> ir.Value:
    element = value_type.element_type
    value = identity_value(reducer, element)
    if isinstance(element, ir.IntegerType):
        width = ir.IntegerType(element).width
        attr = ir.IntegerAttr.get(element, int(bool(value)) if width == 1 else int(value))
    else:
        attr = ir.FloatAttr.get(element, float(value))
    return _splat(value_type, attr)


def _spread(scalar: ir.Value, shape) -> ir.Value:
    """A scalar broadcast to `shape`."""
    if list(shape) == []:
        return scalar
    return stablehlo.BroadcastInDimOp(_tensor(shape, scalar.type.element_type), scalar,
                                      []).result


def _compare(lhs: ir.Value, rhs: ir.Value, direction: str) -> ir.Value:
    return stablehlo.CompareOp(lhs, rhs,
                               stablehlo.ComparisonDirectionAttr.get(direction)).result


def _and(a: ir.Value | None, b: ir.Value) -> ir.Value:
    return b if a is None else stablehlo.AndOp(a, b).result


def _i32() -> ir.IntegerType:
    return ir.IntegerType.get_signless(32)


def _work_type(element_type: ir.Type) -> ir.IntegerType:
    """A signed type holding every index value and dim size exactly: the index type
    itself for signless ints of 32 or 64 bits, else i64."""
    t = ir.IntegerType(element_type)
    if t.is_signless and t.width in (32, 64):
        return t
    return ir.IntegerType.get_signless(64)


def _to_work(value: ir.Value, work: ir.IntegerType) -> ir.Value:
    """Index values converted to `work` without changing any value's meaning (huge
    unsigned 64-bit values are first capped at 2^62: still out of range)."""
    t = ir.IntegerType(value.type.element_type)
    if t == work:
        return value
    if t.is_unsigned and t.width == 64:
        cap = _spread(_scalar(2 ** 62, t), value.type.shape)
        value = stablehlo.MinOp(value, cap).result
    return stablehlo.ConvertOp(_tensor(value.type.shape, work), value).result


def _dim_offset(lw, sharding: TensorSharding, dim: int, local_size: int,
                element_type: ir.IntegerType) -> ir.Value:
    """Where this device's shard of `dim` starts (a scalar of `element_type`)."""
    values = [0] * lw.num_devices
    for device in range(lw.num_devices):
        if sharding.mesh.contains_device(device):
            values[device] = sharding.shard_index(device)[dim] * local_size
    offset = lw.device_scalar(values)
    if element_type != _i32():
        offset = stablehlo.ConvertOp(_tensor([], element_type), offset).result
    return offset


def _global_size(lw, value: ir.Value, dim: int, sharding: TensorSharding) -> int:
    """The global size of `dim` of the (local) `value`: not local x shards where the
    dim is uneven (padded shards, shardpy.lowering.padding)."""
    shape = lw.global_shape(value)
    if shape is not None:
        return shape[dim]
    return value.type.shape[dim] * sharding.dim_shards(dim)


def _first_along(lw, mesh, axes) -> ir.Value:
    """tensor<i1>: is this device the first one along `axes`?"""
    first = [0] * lw.num_devices
    for device in mesh.devices:
        first[device] = int(group_index(mesh, tuple(axes), device) == 0)
    return _compare(lw.device_scalar(first), _scalar(1, _i32()), "EQ")


def _bool_attr(op: ir.Operation, name: str, value: bool) -> None:
    if name in op.attributes:
        op.attributes[name] = ir.BoolAttr.get(value)


def _replace_result(lw, result: ir.Value, new: ir.Value, first_user=None) -> None:
    """Users of `result` take `new`, made from it by a chain of ops starting at
    `first_user` (default: `new`'s own op)."""
    lw.takes_over(new, result)
    result.replace_all_uses_except(new, first_user or new.owner.operation)


# --------------------------------------------------------------------------- indices


class _Indices:
    """The components of an index tensor along its index vector dim, in a signed work
    type, so some can be rewritten and the tensor put back together."""

    def __init__(self, indices: ir.Value, index_vector_dim: int):
        self.work = _work_type(indices.type.element_type)
        self.value = _to_work(indices, self.work)
        self.shape = list(indices.type.shape)
        self.ivd = index_vector_dim
        self.implicit = index_vector_dim >= len(self.shape)
        count = 1 if self.implicit else self.shape[index_vector_dim]
        self.components: list[ir.Value | None] = [None] * count

    @property
    def component_shape(self) -> list[int]:
        if self.implicit:
            return list(self.shape)
        shape = list(self.shape)
        shape[self.ivd] = 1
        return shape

    def get(self, c: int) -> ir.Value:
        if self.components[c] is None:
            if self.implicit or self.shape[self.ivd] == 1:
                self.components[c] = self.value
            else:
                start = [0] * len(self.shape)
                limit = list(self.shape)
                start[self.ivd], limit[self.ivd] = c, c + 1
                self.components[c] = stablehlo.SliceOp(
                    self.value, start, limit, [1] * len(self.shape)).result
        return self.components[c]

    def set(self, c: int, value: ir.Value) -> None:
        self.components[c] = value

    def scalar(self, value: int) -> ir.Value:
        return _spread(_scalar(value, self.work), self.component_shape)

    def joined(self) -> ir.Value:
        if self.implicit:
            return self.components[0] if self.components[0] is not None else self.value
        if all(c is None for c in self.components):
            return self.value
        parts = [self.get(c) for c in range(len(self.components))]
        if len(parts) == 1:
            return parts[0]  # component-shaped is the whole shape
        return stablehlo.ConcatenateOp(parts, self.ivd).result

    def batch_mask(self, mask: ir.Value) -> ir.Value:
        """A component-shaped mask reshaped to the batch dims alone."""
        if self.implicit:
            return mask
        batch = [s for i, s in enumerate(self.shape) if i != self.ivd]
        return stablehlo.ReshapeOp(_tensor(batch, mask.type.element_type), mask).result


# --------------------------------------------------------------------------- gather


def lower_gather(lw, op: ir.Operation) -> None:
    operand, indices = op.operands[0], op.operands[1]
    sharding = lw.shardings.get(operand)
    lw.shrink_results(op)
    if sharding is None or not any(d.axes for d in sharding.dims):
        return
    dn = stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])
    batching = set(dn.operand_batching_dims)
    start_map = list(dn.start_index_map)
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
    local = list(operand.type.shape)
    reduced = []  # (operand dim, global size, local size)
    for d, dim in enumerate(sharding.dims):
        if not dim.axes or d in batching:
            continue  # explicit batching dims are sharded like the indices' ones
        full = _global_size(lw, operand, d, sharding)
        if sizes[d] == full:
            sizes[d] = local[d]  # a window dim taken whole: the start is 0 anyway
        elif sizes[d] == 1:
            reduced.append((d, full, local[d]))
        else:
            raise ShardpyError(f"internal: gather operand dim {d} is sharded but sliced "
                               f"{sizes[d]} of {full}", op.location)
    op.attributes["slice_sizes"] = ir.DenseI64ArrayAttr.get(sizes)
    if not reduced:
        return
    # Rows of a sharded collapsed dim: the global start, clamped as the unpartitioned
    # gather clamps it, minus this shard's offset; rows of other shards are masked.
    result = op.results[0]
    mask = None
    with op.location, ir.InsertionPoint(op):
        idx = _Indices(indices, dn.index_vector_dim)
        scalar_mask = None
        for d, full, size in reduced:
            offset = _dim_offset(lw, sharding, d, size, idx.work)
            if d not in start_map:
                # The start is 0: only the shard holding row 0 contributes.
                scalar_mask = _and(scalar_mask, _compare(offset, _scalar(0, idx.work), "EQ"))
                continue
            c = start_map.index(d)
            clamped = stablehlo.ClampOp(_scalar(0, idx.work), idx.get(c),
                                        _scalar(full - 1, idx.work)).result
            shifted = stablehlo.SubtractOp(clamped, _spread(offset, idx.component_shape)
                                           ).result
            idx.set(c, shifted)
            inside = _and(_compare(shifted, idx.scalar(0), "GE"),
                          _compare(shifted, idx.scalar(size), "LT"))
            mask = _and(mask, inside)
        op.operands[1] = idx.joined()
    _bool_attr(op, "indices_are_sorted", False)
    out_type = result.type
    offset_dims = set(dn.offset_dims)
    batch_dims = [i for i in range(out_type.rank) if i not in offset_dims]
    i1 = ir.IntegerType.get_signless(1)
    with op.location, after(op):
        keep = None
        if mask is not None:
            keep = stablehlo.BroadcastInDimOp(_tensor(out_type.shape, i1),
                                              idx.batch_mask(mask), batch_dims).result
        if scalar_mask is not None:
            keep = _and(keep, _spread(scalar_mask, out_type.shape))
        masked = stablehlo.SelectOp(keep, result, _zeros(out_type)).result
    _replace_result(lw, result, masked)


# --------------------------------------------------------------------------- scatter


def _scatter_batch_axes(dn, updates_sharding: TensorSharding | None, update_rank: int):
    """Axes sharding the update batch dims that only indices and updates have (the
    REDUCTION factor of a reducing scatter)."""
    if updates_sharding is None:
        return []
    window = set(dn.update_window_dims)
    explicit = set(dn.scatter_indices_batching_dims)
    axes = []
    position = 0
    for u in range(update_rank):
        if u in window:
            continue
        indices_dim = position if position < dn.index_vector_dim else position + 1
        position += 1
        if indices_dim not in explicit:
            axes += list(updates_sharding.dims[u].axes)
    return axes


def lower_scatter(lw, op: ir.Operation) -> None:
    n = len(op.results)
    inputs = list(op.operands[:n])
    indices = op.operands[n]
    updates = list(op.operands[n + 1:])
    sharding = lw.shardings.get(inputs[0])
    updates_sharding = lw.shardings.get(updates[0])
    lw.shrink_results(op)
    dn = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    inserted = set(dn.inserted_window_dims)
    batching = set(dn.input_batching_dims)
    to_operand = list(dn.scattered_dims_to_operand_dims)
    local = list(inputs[0].type.shape)
    shifted = []  # (operand dim, global size, local size)
    if sharding is not None:
        for d, dim in enumerate(sharding.dims):
            if not dim.axes or d in batching:
                continue
            if d in inserted:
                shifted.append((d, _global_size(lw, inputs[0], d, sharding), local[d]))
            # else a window dim the updates cover whole, sharded alike: start must be
            # 0 globally and locally alike (else the window is out of bounds: skipped)
    batch_axes = _scatter_batch_axes(dn, updates_sharding, updates[0].type.rank)
    reducer = scatter_reducer(op) if batch_axes else None
    if batch_axes and reducer is None:
        raise ShardpyError("internal: scatter updates are split along batch dims but its "
                           "body is not a reducer", op.location)
    skip_unless = None  # tensor<i1>: this device holds the window (dims without index)
    if shifted:
        with op.location, ir.InsertionPoint(op):
            idx = _Indices(indices, dn.index_vector_dim)
            for d, full, size in shifted:
                offset = _dim_offset(lw, sharding, d, size, idx.work)
                if d not in to_operand:
                    skip_unless = _and(skip_unless,
                                       _compare(offset, _scalar(0, idx.work), "EQ"))
                    continue
                c = to_operand.index(d)
                # In bounds globally iff in [0, full - 1]; [-1, full] keeps that and
                # cannot wrap around when shifted; in bounds locally iff in this shard
                # (or in its padding, uneven dims: written there, never read).
                clamped = stablehlo.ClampOp(_scalar(-1, idx.work), idx.get(c),
                                            _scalar(full, idx.work)).result
                idx.set(c, stablehlo.SubtractOp(
                    clamped, _spread(offset, idx.component_shape)).result)
            op.operands[n] = idx.joined()
    if sharding is not None and any(dim.axes for dim in sharding.dims):
        # XLA (jaxlib 0.10.2, CPU) fuses a dynamic_slice that makes the operand
        # (an all_slice) into the scatter and applies out-of-bounds indices (shifted
        # out of the shard, or out of range) to the unsliced array; a barrier keeps the
        # operands apart. Block arguments too: a callee's argument is the caller's
        # dynamic_slice once XLA inlines the call
        # (test/Regressions/fuzz_scatter_out_of_shard_into_*.mlir,
        # fuzz_scatter_window_sharded_out_of_range.mlir).
        with op.location, ir.InsertionPoint(op):
            kept = stablehlo.OptimizationBarrierOp(inputs).results
        for i, value in enumerate(kept):
            inputs[i] = op.operands[i] = value
        _bool_attr(op, "indices_are_sorted", False)
        _bool_attr(op, "unique_indices", False)
    if batch_axes and reducer not in IDEMPOTENT_REDUCERS and reducer != "stablehlo.add":
        # multiply, not idempotent: the initial value on the first device along the
        # batch axes, the identity on the others. (add: the plan made the operand
        # unreduced on those axes already; max/min/and/or may count it many times.)
        mesh = updates_sharding.mesh
        with op.location, ir.InsertionPoint(op):
            first = _first_along(lw, mesh, batch_axes)
            for i, value in enumerate(inputs):
                keep = _spread(first, value.type.shape)
                op.operands[i] = stablehlo.SelectOp(
                    keep, value, _identity(value.type, reducer)).result
    results = list(op.results)
    with op.location, after(op):
        finals = []
        for i, result in enumerate(results):
            value, first_user = result, None
            if skip_unless is not None:
                value = stablehlo.SelectOp(_spread(skip_unless, value.type.shape), value,
                                           op.operands[i]).result
                first_user = value.owner.operation
            if batch_axes and reducer != "stablehlo.add":
                value = lw.all_reduce(value, batch_axes, updates_sharding.mesh, reducer)
                first_user = first_user or value.owner.operation
            finals.append((value, first_user))
    for result, (value, first_user) in zip(results, finals):
        if value is not result:
            _replace_result(lw, result, value, first_user)


# --------------------------------------------------------------------------- dynamic slices


def _starts_in(work: ir.IntegerType, starts) -> list[ir.Value]:
    return [_to_work(s, work) for s in starts]


def _common_work(starts) -> ir.IntegerType:
    types = {_work_type(s.type.element_type) for s in starts}
    return types.pop() if len(types) == 1 else ir.IntegerType.get_signless(64)


def _constant_int(value: ir.Value) -> int | None:
    if isinstance(value, ir.OpResult) and value.owner.operation.name == "stablehlo.constant":
        try:
            return int(np.array(ir.DenseElementsAttr(
                value.owner.operation.attributes["value"])).reshape(-1)[0])
        except Exception:  # noqa: BLE001 - element types numpy cannot hold
            return None
    return None


def _clamped(value: ir.Value, low: int, high: int, work: ir.IntegerType) -> ir.Value:
    """clamp(low, value, high) (a constant in range stays as it is)."""
    known = _constant_int(value)
    if known is not None:
        if low <= known <= high and value.type.element_type == work:
            return value
        return _scalar(min(max(known, low), high), work)
    return stablehlo.ClampOp(_scalar(low, work), value, _scalar(high, work)).result


def lower_dynamic_slice(lw, op: ir.Operation) -> None:
    """Start indices are clamped explicitly (in range for the local operand) before the
    op: XLA (jaxlib 0.10.2, CPU) folds dynamic_slice(dynamic_slice(x, a), b) into
    dynamic_slice(x, a + b) with ONE clamp, which is wrong when `a` is out of range,
    and the partitioned program puts dynamic slices behind this one (all_slice of its
    result, slices of per-device tables...)."""
    operand = op.operands[0]
    starts = list(op.operands[1:])
    sharding = lw.shardings.get(operand)
    global_sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
    lw.shrink_results(op)
    local = list(operand.type.shape)
    sizes = list(op.results[0].type.shape)
    op.attributes["slice_sizes"] = ir.DenseI64ArrayAttr.get(sizes)
    partial = {}  # dim -> (global size, local size, slice size)
    if sharding is not None:
        for d, dim in enumerate(sharding.dims):
            if dim.axes:
                full = _global_size(lw, operand, d, sharding)
                if global_sizes[d] != full:
                    partial[d] = (full, local[d], global_sizes[d])
    if not partial and all(
            (k := _constant_int(st)) is not None and 0 <= k <= local[d] - sizes[d]
            for d, st in enumerate(starts)):
        return
    # A sliced sharded dim: each device slices its part of the window out of its shard
    # padded with `window` zeros on both sides, at (global start, clamped) - offset +
    # window: a window before or after the shard lands in the padding and reads zeros.
    # The partial windows sum to the slice (the result is unreduced on the dim's axes).
    # Other dims: dims taken whole start at 0 (globally and locally alike), unsharded
    # dims at the global start clamped as the op would.
    with op.location, ir.InsertionPoint(op):
        work = _common_work(starts)
        starts = _starts_in(work, starts)
        low = [0] * len(local)
        for d in range(len(local)):
            if d in partial:
                full, size, window = partial[d]
                low[d] = window
                offset = _dim_offset(lw, sharding, d, size, work)
                clamped = _clamped(starts[d], 0, full - window, work)
                shifted = stablehlo.AddOp(stablehlo.SubtractOp(clamped, offset).result,
                                          _scalar(window, work)).result
                starts[d] = _clamped(shifted, 0, size + window, work)
            else:
                starts[d] = _clamped(starts[d], 0, local[d] - sizes[d], work)
        if partial:
            element = operand.type.element_type
            padded_shape = [s + 2 * p for s, p in zip(local, low)]
            padded = stablehlo.PadOp(operand, _zeros(_tensor([], element)), low, low,
                                     [0] * len(local),
                                     results=[_tensor(padded_shape, element)]).result
            lw.shardings[padded] = sharding
            op.operands[0] = padded
    for i, start in enumerate(starts):
        op.operands[1 + i] = start


def lower_dynamic_update_slice(lw, op: ir.Operation) -> None:
    operand, update = op.operands[0], op.operands[1]
    starts = list(op.operands[2:])
    sharding = lw.shardings.get(operand)
    update_sharding = lw.shardings.get(update)
    update_shape = list(update.type.shape)  # local already
    lw.shrink_results(op)
    if sharding is None or not any(d.axes for d in sharding.dims):
        return
    local = list(operand.type.shape)
    partial = []  # (dim, global size, local size, update size)
    for d, dim in enumerate(sharding.dims):
        if not dim.axes:
            continue
        full = _global_size(lw, operand, d, sharding)
        shards = update_sharding.dim_shards(d) if update_sharding is not None else 1
        update_full = update_shape[d] * shards if lw.global_shape(update) is None \
            else lw.global_shape(update)[d]
        if update_full == full:
            continue  # covered: the update is sharded like the operand, starts at 0
        if shards != 1:
            raise ShardpyError(f"internal: dynamic_update_slice update dim {d} is sharded "
                               f"but covers part of the operand dim", op.location)
        partial.append((d, full, local[d], update_shape[d]))
    if not partial:
        return  # covered dims start at 0; unsharded dims are the same on every device
    # Each device writes the part of the update window [g, g + u) (g the clamped global
    # start) that falls in its rows [off, off + n): the update in the shard's frame,
    # u_shift[k] = update[k + off - g], taken out of the update padded with n - 1 on
    # both sides (exact wherever the window meets the shard), and a select where
    # 0 <= k + off - g < u. Unsharded partly updated dims keep the op's own window.
    element = operand.type.element_type
    sharded = {d for d, *_ in partial}
    with op.location, ir.InsertionPoint(op):
        work = _common_work(starts)
        starts = _starts_in(work, starts)
        pad = [0] * len(local)
        for d, full, size, window in partial:
            pad[d] = size - 1
        padded_shape = [s + 2 * p for s, p in zip(update_shape, pad)]
        padded = update
        if any(pad):
            padded = stablehlo.PadOp(update, _zeros(_tensor([], element)), pad, pad,
                                     [0] * len(local),
                                     results=[_tensor(padded_shape, element)]).result
        window_shape = [local[d] if d in sharded else update_shape[d]
                        for d in range(len(local))]
        shift_starts = []
        mask = None
        zero = _scalar(0, work)
        for d in range(len(local)):
            if d not in sharded:
                shift_starts.append(zero)
                continue
            _, full, size, window = next(p for p in partial if p[0] == d)
            offset = _dim_offset(lw, sharding, d, size, work)
            clamped = _clamped(starts[d], 0, full - window, work)
            delta = stablehlo.SubtractOp(offset, clamped).result  # off - g
            shift = stablehlo.AddOp(delta, _scalar(size - 1, work)).result
            # In range wherever the window meets the shard; clamped explicitly (see
            # lower_dynamic_slice) where it does not (masked there anyway).
            shift_starts.append(_clamped(shift, 0, window + size - 2, work))
            k = stablehlo.IotaOp(_tensor(window_shape, work), d).result
            pos = stablehlo.AddOp(k, _spread(delta, window_shape)).result
            inside = _and(_compare(pos, _spread(_scalar(0, work), window_shape), "GE"),
                          _compare(pos, _spread(_scalar(window, work), window_shape), "LT"))
            mask = _and(mask, inside)
        shifted = stablehlo.DynamicSliceOp(padded, shift_starts, window_shape,
                                           results=[_tensor(window_shape, element)]).result
        for d in range(len(local)):
            # Sharded dims: the whole shard; others as the op clamps them (explicitly,
            # see lower_dynamic_slice).
            starts[d] = zero if d in sharded else _clamped(
                starts[d], 0, local[d] - update_shape[d], work)
        if window_shape == local:
            current = operand  # the window is the whole local shard
        else:
            # The op's own window along unsharded dims: read it, merge, write it back.
            current = stablehlo.DynamicSliceOp(operand, starts, window_shape,
                                               results=[_tensor(window_shape, element)]
                                               ).result
        merged = stablehlo.SelectOp(mask, shifted, current).result
    # (Written back by the op itself: a window as big as the shard at 0 is a copy.)
    op.operands[1] = merged
    for i, start in enumerate(starts):
        op.operands[2 + i] = start
