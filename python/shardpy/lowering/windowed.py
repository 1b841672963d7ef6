"""Windowed ops on sharded dims: pad, slice, reverse, concatenate, reduce_window,
select_and_scatter, convolution.

Each op has an *analysis* (`_analyse_<op>`): given global shapes and the shardings
insert-reshards chose, what every device needs along each sharded windowed dim (a
halo.Window) and the op's local attributes there — or None when shardpy cannot
compute those shardings on shards (then insert-reshards keeps the dims whole). The
same analysis prices the plan in insert-reshards (`exchange_cost`, bytes per device)
and drives the lowering in shardpy-to-local (`lower_<op>`). Dims that are not
sharded, or sharded but not windowed, are left as they are.

  pad          window [k*M - low, +M) of the operand filled with the padding value
               (interior padding: the inputs of the shard's range, padded locally and
               cut at the shard's offset)
  slice        window [start + k*M*stride, +(M-1)*stride+1), sliced locally
  reverse      the mirrored shard (a permutation of shards), reversed locally
  concatenate  each operand's window of the result's shard, chosen per position
  reduce_window
               halos (halo.sliding_window: windows, strides, padding, window and base
               dilation), the local op with padding only where the shard needs it;
               a cumulative reduction (window = dim, padding dim-1 on one side: what
               JAX emits for cumsum/cumprod/cummax/cummin) is a local scan plus the
               combined totals of the shards before (after) it: one all_gather of the
               shards' totals, not a halo of the whole array
  select_and_scatter
               halos of operand and source covering every window that touches the
               shard, the local op on them, the shard's part of its result; positions
               outside the array are filled with a value the select never picks
               (lowest for GE/GT, highest for LE/LT, as XLA's partitioner does)
  convolution  spatial dims: the output sharded like the input (kernel whole): input
               halos, then the local conv with adjusted padding; the kernel's spatial
               dim sharded like the input (output whole; weight gradients): the input
               window each kernel shard's taps read, a partial sum. Batch, feature and
               group dims need no exchange; local feature_group_count and
               batch_group_count follow from local shapes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .halo import Exchanger, Window, constant_scalar, scalar_constant, sliding_window
from ..ir.utils import after, const_i32
from .reducers import body_reducer, identity_value, is_identity_init, reducer_op
from ..sharding.op_rule import FactorKind
from ..sharding.model import TensorSharding


# --------------------------------------------------------------------------- placement


@dataclass(frozen=True)
class Placed:
    """A tensor's global shape and sharding (None: replicated)."""
    shape: tuple[int, ...]
    sharding: TensorSharding | None

    def shards(self, dim: int) -> int:
        return self.sharding.dim_shards(dim) if self.sharding is not None else 1

    def axes(self, dim: int) -> tuple:
        return tuple(self.sharding.dims[dim].axes) if self.sharding is not None else ()

    @property
    def local(self) -> list[int]:
        return [_ceil(size, self.shards(d)) for d, size in enumerate(self.shape)]


def _ceil(size: int, shards: int) -> int:
    """Elements per shard (uneven dims: padded to whole shards, shardpy.lowering.padding; the
    planner shards windowed factors evenly only, so a halo's dim always divides)."""
    return -(-size // shards)


def _shape(value_type) -> tuple[int, ...]:
    return tuple(ir.RankedTensorType(value_type).shape) if isinstance(
        value_type, ir.RankedTensorType) else ()


def _planned(op, operand_shardings, result_shardings) -> tuple[list[Placed], list[Placed]]:
    """Insert-reshards' view: types are global."""
    return ([Placed(_shape(v.type), s) for v, s in zip(op.operands, operand_shardings)],
            [Placed(_shape(r.type), s) for r, s in zip(op.results, result_shardings)])


def _lowered(lw, op) -> tuple[list[Placed], list[Placed]]:
    """shardpy-to-local's view: operands are local already, results still global."""
    operands = [Placed(tuple(_global_of(lw, v, _shape(v.type))), lw.shardings.get(v))
                for v in op.operands]
    return operands, [Placed(_shape(r.type), lw.shardings.get(r)) for r in op.results]


def _element_bytes(value) -> int:
    from ..ir.types import element_bytes

    return element_bytes(ir.RankedTensorType(value.type).element_type)


# --------------------------------------------------------------------------- attributes


def _ints(op, name: str, default: list[int]) -> list[int]:
    attrs = op.attributes
    return list(ir.DenseI64ArrayAttr(attrs[name])) if name in attrs else list(default)


def _padding(op, rank: int) -> list[tuple[int, int]]:
    attrs = op.attributes
    if "padding" not in attrs:
        return [(0, 0)] * rank
    flat = [int(x) for x in ir.DenseIntElementsAttr(attrs["padding"])]
    return [(flat[2 * d], flat[2 * d + 1]) for d in range(rank)]


def _padding_attr(padding: list[tuple[int, int]]) -> ir.Attribute:
    return ir.DenseIntElementsAttr.get(np.array(padding, dtype=np.int64).reshape(-1, 2))


def _bools(op, name: str, rank: int) -> list[bool]:
    attrs = op.attributes
    return list(ir.DenseBoolArrayAttr(attrs[name])) if name in attrs else [False] * rank


# --------------------------------------------------------------------------- plans


@dataclass
class Halo:
    """Exchange operand `operand` along `dim` to `window`."""
    operand: int
    dim: int
    window: Window


@dataclass
class Analysis:
    halos: list[Halo] = field(default_factory=list)
    attrs: dict = field(default_factory=dict)     # op-specific local attributes
    extra_bytes: float = 0.0                     # communication besides the halos

    def add(self, halo: Halo) -> None:
        if not halo.window.is_identity:  # shards that need just their own block
            self.halos.append(halo)


def exchange_bytes(analysis: Analysis, operands: list[Placed], element_bytes) -> float:
    """Bytes per device of the halos (applied in order: a later dim's pieces are cut
    from the already extended operand) plus the analysis' other collectives."""
    shapes = [list(p.local) for p in operands]
    total = float(analysis.extra_bytes)
    for halo in analysis.halos:
        shape = shapes[halo.operand]
        others = prod(s for d, s in enumerate(shape) if d != halo.dim)
        total += halo.window.received() * others * element_bytes[halo.operand]
        shape[halo.dim] = halo.window.size
    return total


def _same_axes(a: Placed, da: int, b: Placed, db: int) -> bool:
    return a.axes(da) == b.axes(db)


def _cost(analyse):
    """exchange_cost(op, operand_shardings, result_shardings) from an analysis."""
    def cost(op, operand_shardings, result_shardings) -> float | None:
        operands, results = _planned(op, operand_shardings, result_shardings)
        analysis = analyse(op, operands, results)
        if analysis is None:
            return None
        # Uneven dims (padded shards) only where nothing moves between shards: a halo
        # exchanges whole blocks of a dim its shards divide.
        if any(operands[h.operand].shape[h.dim] % operands[h.operand].shards(h.dim)
               for h in analysis.halos):
            return None
        return exchange_bytes(analysis, operands, [
            _element_bytes(v) if isinstance(v.type, ir.RankedTensorType) else 0
            for v in op.operands])
    return cost


# --------------------------------------------------------------------------- pad


def _analyse_pad(op, operands, results) -> Analysis | None:
    src, out = operands[0], results[0]
    rank = len(src.shape)
    low = _ints(op, "edge_padding_low", [0] * rank)
    high = _ints(op, "edge_padding_high", [0] * rank)
    interior = _ints(op, "interior_padding", [0] * rank)
    analysis = Analysis(attrs={"low": list(low), "high": list(high),
                               "interior": list(interior), "cut": {}})
    for d in range(rank):
        n = out.shards(d)
        if src.shards(d) != n or not _same_axes(src, d, out, d):
            return None
        if n == 1 or (low[d], high[d], interior[d]) == (0, 0, 0):
            continue
        L, M, q = _ceil(src.shape[d], n), _ceil(out.shape[d], n), interior[d] + 1
        if q == 1:
            analysis.add(Halo(0, d, Window.affine(n, L, -low[d], M, M)))
            analysis.attrs["low"][d] = analysis.attrs["high"][d] = 0
            continue
        firsts = [(k * M - low[d]) // q for k in range(n)]
        lasts = [((k + 1) * M - 1 - low[d]) // q for k in range(n)]
        size = max(b - a + 1 for a, b in zip(firsts, lasts))
        offsets = [k * M - low[d] - a * q for k, a in enumerate(firsts)]
        padded = size + (size - 1) * interior[d]
        analysis.add(Halo(0, d, Window(n, L, tuple(firsts), size)))
        if len(set(offsets)) == 1:
            analysis.attrs["low"][d] = -offsets[0]
            analysis.attrs["high"][d] = M - padded + offsets[0]
        else:
            analysis.attrs["low"][d] = 0
            analysis.attrs["high"][d] = max(0, max(offsets) + M - padded)
            analysis.attrs["cut"][d] = offsets
    return analysis


def lower_pad(lw, op) -> bool:
    operands, results = _lowered(lw, op)
    analysis = _analyse_pad(op, operands, results)
    if analysis is None:
        raise _cannot(op)
    src = operands[0]
    with op.location, ir.InsertionPoint(op):
        value = _apply_halos(lw, op, analysis, operands, fills=[op.operands[1]])[0]
    op.operands[0] = value
    for name, key in (("edge_padding_low", "low"), ("edge_padding_high", "high")):
        op.attributes[name] = ir.DenseI64ArrayAttr.get(analysis.attrs[key])
    lw.shrink_results(op)
    result = op.results[0]
    cut = analysis.attrs["cut"]
    if analysis.halos and not cut and result.type == value.type and not any(
            analysis.attrs[k][d] for k in ("low", "high", "interior")
            for d in range(len(analysis.attrs["low"]))):
        lw.takes_over(value, result)
        result.replace_all_uses_with(value)  # the exchange did all the padding
        op.erase()
        return True
    if not cut:
        return False
    # Interior padding with shard offsets that differ: pad wide, cut each device's part.
    rtype = ir.RankedTensorType(result.type)
    padded = [a + (a - 1) * i + lo + hi if a else 0 for a, i, lo, hi in zip(
        _shape(value.type), analysis.attrs["interior"], analysis.attrs["low"],
        analysis.attrs["high"])]
    local_out = list(rtype.shape)
    result.set_type(ir.RankedTensorType.get(padded, rtype.element_type))
    with op.location, after(op):
        ex = Exchanger(lw)
        starts = [const_i32(0)] * len(padded)
        for d, offsets in cut.items():
            starts[d] = lw.device_scalar(ex.per_device(src.sharding.mesh, src.axes(d),
                                                       offsets))
        sliced = stablehlo.DynamicSliceOp(result, starts, local_out, results=[
            ir.RankedTensorType.get(local_out, rtype.element_type)]).result
    lw.takes_over(sliced, result)
    result.replace_all_uses_except(sliced, sliced.owner.operation)
    return False


# --------------------------------------------------------------------------- slice


def _analyse_slice(op, operands, results) -> Analysis | None:
    src, out = operands[0], results[0]
    rank = len(src.shape)
    starts = _ints(op, "start_indices", [0] * rank)
    limits = _ints(op, "limit_indices", list(src.shape))
    strides = _ints(op, "strides", [1] * rank)
    analysis = Analysis(attrs={"start": list(starts), "limit": list(limits),
                               "stride": list(strides)})
    for d in range(rank):
        n = out.shards(d)
        if src.shards(d) != n or not _same_axes(src, d, out, d):
            return None
        if n == 1:
            continue
        L, M = _ceil(src.shape[d], n), _ceil(out.shape[d], n)
        if src.shape[d] == out.shape[d]:  # whole dim kept (a slice keeps its order)
            analysis.attrs["start"][d], analysis.attrs["limit"][d] = 0, L
            analysis.attrs["stride"][d] = 1
            continue
        size = (M - 1) * strides[d] + 1
        analysis.add(Halo(0, d, Window.affine(n, L, starts[d], M * strides[d],
                                                       size)))
        analysis.attrs["start"][d], analysis.attrs["limit"][d] = 0, size
    return analysis


def lower_slice(lw, op) -> bool:
    operands, results = _lowered(lw, op)
    if operands[0].sharding is None:
        lw.shrink_results(op)
        return False
    if feeds_roll(lw, op):
        # Its concatenates read the operand's shards directly (lower_concatenate) and
        # erase this slice once unused: left as it is meanwhile.
        return False
    analysis = _analyse_slice(op, operands, results)
    if analysis is None:
        raise _cannot(op)
    with op.location, ir.InsertionPoint(op):
        value = _apply_halos(lw, op, analysis, operands)[0]
    op.operands[0] = value
    for name, key in (("start_indices", "start"), ("limit_indices", "limit"),
                      ("strides", "stride")):
        op.attributes[name] = ir.DenseI64ArrayAttr.get(analysis.attrs[key])
    lw.shrink_results(op)
    result = op.results[0]
    if analysis.halos and result.type == value.type:  # the exchange did all the slicing
        lw.takes_over(value, result)
        result.replace_all_uses_with(value)
        op.erase()
        return True
    return False


# --------------------------------------------------------------------------- reverse


def _analyse_reverse(op, operands, results) -> Analysis | None:
    src, out = operands[0], results[0]
    analysis = Analysis()
    for d in _ints(op, "dimensions", []):
        n = src.shards(d)
        if out.shards(d) != n or not _same_axes(src, d, out, d):
            return None
        if n > 1:
            L = _ceil(src.shape[d], n)
            analysis.add(Halo(0, d, Window.affine(n, L, src.shape[d] - L, -L, L)))
    return analysis


def lower_reverse(lw, op) -> None:
    operands, results = _lowered(lw, op)
    analysis = _analyse_reverse(op, operands, results)
    if analysis is None:
        raise _cannot(op)
    if analysis.halos:
        with op.location, ir.InsertionPoint(op):
            op.operands[0] = _apply_halos(lw, op, analysis, operands)[0]
    lw.shrink_results(op)


# --------------------------------------------------------------------------- concatenate


def _analyse_concatenate(op, operands, results) -> Analysis | None:
    out = results[0]
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    n = out.shards(dim)
    analysis = Analysis(attrs={"dim": dim, "offsets": []})
    offset = 0
    for i, src in enumerate(operands):
        for d in range(len(src.shape)):
            if src.shards(d) != out.shards(d) or not _same_axes(src, d, out, d):
                return None
        analysis.attrs["offsets"].append(offset)
        if n > 1:
            L, M = _ceil(src.shape[dim], n), _ceil(out.shape[dim], n)
            analysis.add(Halo(i, dim, Window.affine(n, L, -offset, M, M)))
        offset += src.shape[dim]
    return analysis


def roll_pieces(op, global_shape=None):
    """A concatenate whose pieces are unit-stride slices, along the concat dim only,
    of one array x (a roll, a halo): (x, dim, per piece (start in x, length)); else
    None. `global_shape(x)`: x's global shape (default: its type's)."""
    if op.name != "stablehlo.concatenate":
        return None
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    source, pieces = None, []
    for value in op.operands:
        if not isinstance(value, ir.OpResult) or value.owner.operation.name != "stablehlo.slice":
            return None
        piece = value.owner.operation
        x = piece.operands[0]
        if source is None:
            source = x
        elif x != source:
            return None
        shape = global_shape(x) if global_shape is not None else _shape(x.type)
        begin = list(ir.DenseI64ArrayAttr(piece.attributes["start_indices"]))
        limit = list(ir.DenseI64ArrayAttr(piece.attributes["limit_indices"]))
        stride = list(ir.DenseI64ArrayAttr(piece.attributes["strides"]))
        if any(st != 1 for st in stride) or any((b, e) != (0, size) for d, (b, e, size)
                                                in enumerate(zip(begin, limit, shape))
                                                if d != dim):
            return None
        pieces.append((begin[dim], limit[dim] - begin[dim]))
    return source, dim, pieces


def roll_sharding(op, sharding_of) -> TensorSharding | None:
    """How a roll-like concatenate (roll_pieces) is computed on shards: with x's
    sharding, when x is sharded along the concat dim and that divides the result;
    else None (the ordinary path). `sharding_of(value)`: current shardings."""
    found = roll_pieces(op)
    if found is None:
        return None
    x, dim, _ = found
    sharding = sharding_of(x)
    if sharding is None or sharding.unreduced:
        return None
    n = sharding.dim_shards(dim)
    if n == 1 or _shape(op.results[0].type)[dim] % n:
        return None
    return sharding


def _roll_source(lw, op):
    """shardpy-to-local's side of roll_pieces: (x, its Placed, pieces) when the
    concatenate's result is sharded exactly like x with the concat dim sharded.
    Such a concatenate is computed from x's shards directly: the slices feeding only
    it are not computed at all."""
    found = roll_pieces(op, lambda x: _global_of(lw, x, _shape(x.type)))
    if found is None:
        return None
    source, dim, pieces = found
    sharding = lw.shardings.get(source)
    result = lw.sharding_ahead(op.results[0])  # (feeds_roll: a user not lowered yet)
    if sharding is None or result is None or sharding.unreduced or result.unreduced:
        return None
    if sharding.dim_shards(dim) == 1 or any(a.axes != b.axes for a, b in zip(
            sharding.dims, result.dims)):
        return None
    return source, Placed(tuple(_global_of(lw, source, _shape(source.type))), sharding), \
        pieces


def _global_of(lw, value, shape) -> list[int]:
    """The global shape of an already lowered (local) value (uneven dims: not local x
    shards, so the lowering's record first)."""
    known = lw.global_shape(value)
    if known is not None:
        return list(known)
    sharding = lw.shardings.get(value)
    return [n * (sharding.dim_shards(d) if sharding is not None else 1)
            for d, n in enumerate(shape)]


def feeds_roll(lw, op) -> bool:
    """Is `op` (a slice) used only by concatenates computed from its operand?"""
    users = [use.owner for use in op.results[0].uses]
    return bool(users) and all(_roll_source(lw, u.operation if hasattr(u, "operation")
                                            else u) is not None for u in users)


def lower_concatenate(lw, op) -> bool:
    result = op.results[0]
    out = Placed(_shape(result.type), lw.shardings.get(result))
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    roll = _roll_source(lw, op) if out.shards(dim) > 1 else None
    if roll is not None:
        x, placed, starts = roll
        n = out.shards(dim)
        L, M = _ceil(placed.shape[dim], n), _ceil(out.shape[dim], n)
        analysis = Analysis(attrs={"offsets": []})
        offset = 0
        for i, (start, length) in enumerate(starts):
            analysis.attrs["offsets"].append(offset)
            analysis.add(Halo(i, dim, Window.affine(n, L, start - offset, M, M)))
            offset += length
        sources = [placed] * len(starts)
        pieces = [x] * len(starts)
    else:
        operands, results = _lowered(lw, op)
        analysis = _analyse_concatenate(op, operands, results)
        if analysis is None:
            raise _cannot(op)
        if not analysis.halos:
            lw.shrink_results(op)
            return False
        sources, pieces = operands, list(op.operands)
    local_type = lw.local_of(result.type, out.sharding, op.location)
    with op.location, ir.InsertionPoint(op):
        ex = Exchanger(lw)
        windows = list(pieces)
        for halo in analysis.halos:
            placed = sources[halo.operand]
            windows[halo.operand] = ex.exchange(pieces[halo.operand], placed.sharding.mesh,
                                                placed.axes(dim), dim, halo.window)
        # Global position along the dim of each element of this device's shard.
        i32 = ir.IntegerType.get_signless(32)
        shape = list(local_type.shape)
        M = shape[dim]
        base = lw.device_scalar(ex.per_device(out.sharding.mesh, out.axes(dim),
                                              [k * M for k in range(out.shards(dim))]))
        position = stablehlo.AddOp(
            stablehlo.IotaOp(ir.RankedTensorType.get(shape, i32), dim).result,
            stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(shape, i32), base,
                                       []).result).result
        pred_type = ir.RankedTensorType.get(shape, ir.IntegerType.get_signless(1))
        value = windows[-1]
        for i in range(len(windows) - 2, -1, -1):
            limit = stablehlo.BroadcastInDimOp(
                ir.RankedTensorType.get(shape, i32),
                const_i32(analysis.attrs["offsets"][i + 1]), []).result
            before = stablehlo.CompareOp(position, limit,
                                         stablehlo.ComparisonDirectionAttr.get("LT"),
                                         results=[pred_type]).result
            value = stablehlo.SelectOp(before, windows[i], value).result
    lw.takes_over(value, result)  # (out.sharding: the result's)
    result.replace_all_uses_with(value)
    slices = []  # each slice op once, also one concatenated many times (erased once)
    for v in op.operands if roll is not None else []:
        if not any(v.owner.operation == seen for seen in slices):
            slices.append(v.owner.operation)
    op.erase()
    for piece in slices:  # computed from x instead; now unused
        if not list(piece.results[0].uses):
            piece.erase()
    return True


# --------------------------------------------------------------------------- reduce_window


def _window_attrs(op, rank: int):
    return (_ints(op, "window_dimensions", [1] * rank), _ints(op, "window_strides", [1] * rank),
            _ints(op, "base_dilations", [1] * rank), _ints(op, "window_dilations", [1] * rank),
            _padding(op, rank))


def reduce_window_windowed(op, rule) -> frozenset[int]:
    """Factors of dims whose window moves data (base dilation included: a dilated dim
    has more results than inputs, so it cannot stay sharded as it is)."""
    rank = len(_shape(op.operands[0].type))
    window, stride, base, dilation, padding = _window_attrs(op, rank)
    dims = [d for d in range(rank) if (window[d], stride[d], base[d], dilation[d],
                                       padding[d]) != (1, 1, 1, 1, (0, 0))]
    return frozenset(f for t in rule.operands + rule.results for d in dims
                     if d < len(t) for f in t[d]) | frozenset(
        rule.factors_of(FactorKind.PERMUTATION))


def _scan_reducer(op) -> str | None:
    """The reducer of a single-input reduce_window whose body is one associative op and
    whose init is its identity (what a cumulative reduction may combine across shards)."""
    if len(op.operands) != 2:
        return None
    name = body_reducer(op.regions[0])
    if name not in ("stablehlo.add", "stablehlo.multiply", "stablehlo.maximum",
                    "stablehlo.minimum", "stablehlo.and", "stablehlo.or"):
        return None
    return name if is_identity_init(op.operands[1], name) else None


def reduce_window_variant(op):
    """A cumulative reduction is computed differently when its body is one associative
    op with an identity init."""
    return _scan_reducer(op)


def _analyse_reduce_window(op, operands, results) -> Analysis | None:
    count = len(op.results)
    inputs, out = operands[:count], results[0]
    src = inputs[0]
    rank = len(src.shape)
    window, stride, base, dilation, padding = _window_attrs(op, rank)
    analysis = Analysis(attrs={"padding": list(padding), "window": list(window),
                               "scans": []})
    local_out = out.local
    for d in range(rank):
        n = out.shards(d)
        for p in inputs + results:
            if p.shards(d) != n or not _same_axes(p, d, out, d):
                return None
        if n == 1:
            continue
        if (window[d], stride[d], base[d], dilation[d], padding[d]) == (1, 1, 1, 1, (0, 0)):
            continue
        N = src.shape[d]
        reducer = _scan_reducer(op)
        scan = (reducer is not None and window[d] == N and stride[d] == 1 and base[d] == 1
                and dilation[d] == 1 and padding[d] in ((N - 1, 0), (0, N - 1)))
        if scan:
            L = _ceil(N, n)
            analysis.attrs["scans"].append((d, padding[d] == (0, N - 1)))
            analysis.attrs["window"][d] = L
            analysis.attrs["padding"][d] = (L - 1, 0) if padding[d][0] else (0, L - 1)
            # One all_gather of the shards' totals (one element along d).
            totals = prod(s for i, s in enumerate(local_out) if i != d) * n
            analysis.extra_bytes += (n - 1) / n * totals * _element_bytes(op.results[0])
            continue
        sw = sliding_window(n, N, out.shape[d], window[d], stride[d], dilation[d],
                            padding[d][0], base[d])
        if sw is None:
            return None
        for i in range(count):
            analysis.add(Halo(i, d, sw.window))
        analysis.attrs["padding"][d] = (sw.pad_low, sw.pad_high)
    return analysis


def lower_reduce_window(lw, op) -> None:
    operands, results = _lowered(lw, op)
    analysis = _analyse_reduce_window(op, operands, results)
    if analysis is None:
        raise _cannot(op)
    count = len(op.results)
    if analysis.halos:
        with op.location, ir.InsertionPoint(op):
            values = _apply_halos(lw, op, analysis, operands,
                                  fills=[op.operands[count + i] for i in range(count)])
        for i in range(count):
            op.operands[i] = values[i]
    op.attributes["padding"] = _padding_attr(analysis.attrs["padding"])
    op.attributes["window_dimensions"] = ir.DenseI64ArrayAttr.get(analysis.attrs["window"])
    lw.shrink_results(op)
    for d, reverse in analysis.attrs["scans"]:
        _finish_scan(lw, op, operands[0].sharding, d, reverse)


def _finish_scan(lw, op, sharding: TensorSharding, dim: int, reverse: bool) -> None:
    """Local scans of each shard -> the global scan: combine each element with the
    combined totals of the shards before it (after it, for a reverse scan)."""
    result = op.results[0]
    rtype = ir.RankedTensorType(result.type)
    shape = list(rtype.shape)
    element = rtype.element_type
    reducer = reducer_op(op)
    mesh, axes = sharding.mesh, tuple(sharding.dims[dim].axes)
    ex = Exchanger(lw)
    n = sharding.dim_shards(dim)
    i32 = ir.IntegerType.get_signless(32)
    with op.location, after(op):
        starts, limits = [0] * len(shape), list(shape)
        if reverse:
            limits[dim] = 1
        else:
            starts[dim] = shape[dim] - 1
        total = stablehlo.SliceOp(result, starts, limits, [1] * len(shape)).result
        gathered_shape = list(shape)
        gathered_shape[dim] = n
        gathered_type = ir.RankedTensorType.get(gathered_shape, element)
        gathered = stablehlo.AllGatherOp([gathered_type], [total], dim, lw.groups(mesh, axes),
                                         channel_handle=lw.next_channel(),
                                         use_global_device_ids=True).results[0]
        me = lw.device_scalar(ex.per_device(mesh, axes, list(range(n))))
        index = stablehlo.IotaOp(ir.RankedTensorType.get(gathered_shape, i32), dim).result
        mine = stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(gathered_shape, i32), me,
                                          []).result
        before = stablehlo.CompareOp(index, mine, stablehlo.ComparisonDirectionAttr.get(
            "GT" if reverse else "LT"), results=[ir.RankedTensorType.get(
                gathered_shape, ir.IntegerType.get_signless(1))]).result
        identity = scalar_constant(element, identity_value(reducer, element))
        masked = stablehlo.SelectOp(before, gathered, stablehlo.BroadcastInDimOp(
            gathered_type, identity, []).result).result
        kept = [d for d in range(len(shape)) if d != dim]
        carried_type = ir.RankedTensorType.get([shape[d] for d in kept], element)
        carry = stablehlo.ReduceOp([carried_type], [masked], [identity], [dim])
        from ..ir.utils import reducer_region

        reducer_region(carry.operation.regions[0], element, reducer)
        spread = stablehlo.BroadcastInDimOp(rtype, carry.results[0], kept).result
        combined = ir.Operation.create(reducer, results=[rtype],
                                       operands=[spread, result]).results[0]
    lw.takes_over(combined, result)
    result.replace_all_uses_except(combined, [total.owner.operation,
                                              combined.owner.operation])


# --------------------------------------------------------------------------- select_and_scatter


def _select_fill(op) -> str | None:
    """'lowest' or 'highest': a value the select region never prefers to a real element
    (its body compares its arguments with GE/GT or LE/LT); None otherwise."""
    body = op.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) != 2 or ops[0].name != "stablehlo.compare":
        return None
    direction = str(ops[0].attributes["comparison_direction"])
    args = list(body.arguments)
    operands = list(ops[0].operands)
    if operands == args:
        swapped = False
    elif operands == args[::-1]:
        swapped = True
    else:
        return None
    if "GE" in direction or "GT" in direction:
        return "highest" if swapped else "lowest"
    if "LE" in direction or "LT" in direction:
        return "lowest" if swapped else "highest"
    return None


def select_and_scatter_variant(op):
    """Which padding positions can be filled depends on the select and scatter bodies."""
    return _select_fill(op), _scatter_identity(op)


def _analyse_select_and_scatter(op, operands, results) -> Analysis | None:
    src, source, out = operands[0], operands[1], results[0]
    rank = len(src.shape)
    window = _ints(op, "window_dimensions", [1] * rank)
    stride = _ints(op, "window_strides", [1] * rank)
    padding = _padding(op, rank)
    analysis = Analysis(attrs={"padding": list(padding), "cut": {}})
    for d in range(rank):
        n = src.shards(d)
        for p in (source, out):
            if p.shards(d) != n or not _same_axes(p, d, src, d):
                return None
        if n == 1 or (window[d], stride[d], padding[d]) == (1, 1, (0, 0)):
            continue
        N, W = src.shape[d], source.shape[d]
        L, M = _ceil(N, n), _ceil(W, n)
        w, s, (lo, _) = window[d], stride[d], padding[d]
        # Windows that touch positions [kL, (k+1)L) of the shard, and enough more that
        # their operand range covers the shard (strides longer than windows leave
        # positions no window selects): windows that do not touch the shard scatter
        # only outside it, and windows outside the source are filled with the scatter
        # identity, so extra windows change nothing the shard keeps.
        firsts = [min(-(-(k * L + lo - (w - 1)) // s), (k * L + lo) // s) for k in range(n)]
        lasts = [max(((k + 1) * L - 1 + lo) // s, -(-((k + 1) * L + lo - w) // s))
                 for k in range(n)]
        count = max(b - a + 1 for a, b in zip(firsts, lasts))
        if count <= 0:
            return None
        windows = Window(n, M, tuple(firsts), count)
        inputs = Window(n, L, tuple(a * s - lo for a in firsts), (count - 1) * s + w)
        if inputs.out_of_range and _select_fill(op) is None:
            return None
        if windows.out_of_range and _scatter_identity(op) is None:
            return None
        analysis.add(Halo(0, d, inputs))
        analysis.add(Halo(1, d, windows))
        analysis.attrs["padding"][d] = (0, 0)
        analysis.attrs["cut"][d] = [k * L - start for k, start in enumerate(inputs.starts)]
    return analysis


def _scatter_identity(op):
    name = body_reducer(op.regions[1])
    if name not in ("stablehlo.add", "stablehlo.multiply", "stablehlo.maximum",
                    "stablehlo.minimum", "stablehlo.and", "stablehlo.or"):
        return None
    return name


def lower_select_and_scatter(lw, op) -> None:
    operands, results = _lowered(lw, op)
    analysis = _analyse_select_and_scatter(op, operands, results)
    if analysis is None:
        raise _cannot(op)
    if not analysis.attrs["cut"]:
        lw.shrink_results(op)
        return
    element = ir.RankedTensorType(op.operands[0].type).element_type
    with op.location, ir.InsertionPoint(op):
        fills = [None, None]
        outside = {h.operand for h in analysis.halos if h.window.out_of_range}
        fill = _select_fill(op)
        if 0 in outside and fill:
            fills[0] = scalar_constant(element, identity_value(
                "stablehlo.maximum" if fill == "lowest" else "stablehlo.minimum", element))
        scatter = _scatter_identity(op)
        source_element = ir.RankedTensorType(op.operands[1].type).element_type
        if 1 in outside and scatter:
            fills[1] = scalar_constant(source_element, identity_value(scatter,
                                                                     source_element))
        values = _apply_halos(lw, op, analysis, operands, fills=fills)
    op.operands[0], op.operands[1] = values[0], values[1]
    op.attributes["padding"] = _padding_attr(analysis.attrs["padding"])
    result = op.results[0]
    out = results[0]
    local_out = list(lw.local_of(result.type, out.sharding, op.location).shape)
    extended = ir.RankedTensorType.get(list(_shape(values[0].type)), element)
    result.set_type(extended)
    with op.location, after(op):
        ex = Exchanger(lw)
        cut = analysis.attrs["cut"]
        if all(len(set(offsets)) == 1 for offsets in cut.values()):
            starts = [0] * len(local_out)
            for d, offsets in cut.items():
                starts[d] = offsets[0]
            if not any(starts) and list(extended.shape) == local_out:
                result.set_type(extended)
                return
            limits = [a + b for a, b in zip(starts, local_out)]
            sliced = stablehlo.SliceOp(result, starts, limits, [1] * len(local_out)).result
        else:
            starts = [const_i32(0)] * len(local_out)
            for d, offsets in cut.items():
                starts[d] = lw.device_scalar(ex.per_device(out.sharding.mesh, out.axes(d),
                                                           offsets))
            sliced = stablehlo.DynamicSliceOp(result, starts, local_out, results=[
                ir.RankedTensorType.get(local_out, element)]).result
    lw.takes_over(sliced, result)  # (out.sharding: the result's)
    result.replace_all_uses_except(sliced, sliced.owner.operation)


# --------------------------------------------------------------------------- convolution


def convolution_windowed(op, rule) -> frozenset[int]:
    """Permutation factors (windows along spatial dims) and the window factors the
    kernel's spatial dims share with the input."""
    dn = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    kernel = rule.operands[1]
    found = set(rule.factors_of(FactorKind.PERMUTATION))
    for k in dn.kernel_spatial_dimensions:
        found |= set(kernel[k])
    return frozenset(found)


def _analyse_convolution(op, operands, results) -> Analysis | None:
    lhs, rhs, out = operands[0], operands[1], results[0]
    dn = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    spatial = len(dn.input_spatial_dimensions)
    strides = _ints(op, "window_strides", [1] * spatial)
    padding = _padding(op, spatial)
    lhs_dilation = _ints(op, "lhs_dilation", [1] * spatial)
    rhs_dilation = _ints(op, "rhs_dilation", [1] * spatial)
    reversal = _bools(op, "window_reversal", spatial)
    analysis = Analysis(attrs={"padding": list(padding)})
    for i, (l, k, o) in enumerate(zip(dn.input_spatial_dimensions,
                                      dn.kernel_spatial_dimensions,
                                      dn.output_spatial_dimensions)):
        nl, nk, no = lhs.shards(l), rhs.shards(k), out.shards(o)
        if nl == nk == no == 1:
            continue
        N, K, Nout = lhs.shape[l], rhs.shape[k], out.shape[o]
        if nk == 1 and nl == no and _same_axes(lhs, l, out, o):
            # Output windows sharded like the input: halos.
            sw = sliding_window(nl, N, Nout, K, strides[i], rhs_dilation[i], padding[i][0],
                                lhs_dilation[i])
            if sw is None:
                return None
            analysis.add(Halo(0, l, sw.window))
            analysis.attrs["padding"][i] = (sw.pad_low, sw.pad_high)
        elif no == 1 and nl == nk and _same_axes(lhs, l, rhs, k) and lhs_dilation[i] == 1 \
                and not reversal[i]:
            # Kernel taps sharded like the input: each device sums its taps' products
            # over the input they read (a partial sum over the dim's axes).
            n = nl
            T, L = _ceil(K, n), _ceil(N, n)
            size = (Nout - 1) * strides[i] + (T - 1) * rhs_dilation[i] + 1
            analysis.add(Halo(0, l, Window.affine(
                n, L, -padding[i][0], T * rhs_dilation[i], size)))
            analysis.attrs["padding"][i] = (0, 0)
        else:
            return None
    return analysis


def lower_convolution(lw, op) -> None:
    operands, results = _lowered(lw, op)
    analysis = _analyse_convolution(op, operands, results)
    if analysis is None:
        raise _cannot(op)
    if analysis.halos:
        with op.location, ir.InsertionPoint(op):
            op.operands[0] = _apply_halos(lw, op, analysis, operands)[0]
    if analysis.attrs["padding"] != _padding(op, len(analysis.attrs["padding"])):
        op.attributes["padding"] = _padding_attr(analysis.attrs["padding"])
    # Group counts of the local conv, from local shapes: feature groups split the
    # input features into (group, per-group) with the group major, so the local
    # count is local input features / local kernel input features; batch groups the
    # same way on the input batch and the output batch.
    dn = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    lhs_local = _shape(op.operands[0].type)
    rhs_local = _shape(op.operands[1].type)
    lw.shrink_results(op)
    out_local = _shape(op.results[0].type)
    i64 = ir.IntegerType.get_signless(64)
    if ir.IntegerAttr(op.attributes["feature_group_count"]).value > 1:
        op.attributes["feature_group_count"] = ir.IntegerAttr.get(
            i64, lhs_local[dn.input_feature_dimension]
            // rhs_local[dn.kernel_input_feature_dimension])
    if ir.IntegerAttr(op.attributes["batch_group_count"]).value > 1:
        op.attributes["batch_group_count"] = ir.IntegerAttr.get(
            i64, lhs_local[dn.input_batch_dimension] // out_local[dn.output_batch_dimension])


# --------------------------------------------------------------------------- shared


def _apply_halos(lw, op, analysis: Analysis, operands: list[Placed], fills=None
                 ) -> list[ir.Value]:
    """The op's operands after the analysis' exchanges (at the current insertion
    point); `fills[i]`: the padding value of operand i (None: zeros)."""
    ex = Exchanger(lw)
    values = list(op.operands)
    for halo in analysis.halos:
        placed = operands[halo.operand]
        fill = fills[halo.operand] if fills is not None and halo.operand < len(fills) \
            else None
        values[halo.operand] = ex.exchange(values[halo.operand], placed.sharding.mesh,
                                           placed.axes(halo.dim), halo.dim, halo.window,
                                           fill)
    return values


def _cannot(op):
    from ..ir.diagnostics import ShardpyError

    return ShardpyError(f"internal: '{op.name}' cannot be computed on the shards "
                        f"insert-reshards chose", op.location)


pad_cost = _cost(_analyse_pad)
slice_cost = _cost(_analyse_slice)
reverse_cost = _cost(_analyse_reverse)
concatenate_cost = _cost(_analyse_concatenate)
reduce_window_cost = _cost(_analyse_reduce_window)
select_and_scatter_cost = _cost(_analyse_select_and_scatter)
convolution_cost = _cost(_analyse_convolution)
