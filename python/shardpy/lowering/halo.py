"""Halo exchange: the part of a sharded dim a device needs from other devices.

An op computed on shards of a dim (n shards of L elements of a global N, shard k on
the device at position k of its replica group along the dim's axes) often needs, on
shard k, a *window* of the global operand: positions [start[k], start[k] + size),
one static size for every device, start[k] read off the op's attributes:

  pooling / convolution   a halo on each side of the shard (window - stride, padding)
  pad / slice             a shift (and a change of size): start = k*M - low
  reverse                 the mirrored shard: start = N - (k+1)*L
  concatenate             each operand's part of the result's shard

`Window` is that geometry (pure Python, so insert-reshards can price it), `exchange`
builds it on each device from local shards with stablehlo.collective_permute:

  rounds  the window is read from shards b(k), b(k)+1, ..., b(k)+R-1, with
          b(k) = floor(start[k] / L). Round r moves the same local range [lo_r, hi_r)
          of every source shard (only the first round starts late, only the last ends
          early), so a round is one collective_permute of one static slice; pairs
          (b(k)+r -> k) exist only where device k needs data of that shard. A device
          reading its own shard takes it locally, with no communication; a shard
          needed by several devices in one round is sent by as many permutes.
  buffer  the rounds' pieces, concatenated, hold global positions
          [b(k)*L + lo_0, ...) on device k; its window starts at
          start[k] - b(k)*L - lo_0 in there: a static slice where that is the same on
          every device, else a dynamic_slice at an offset from a per-device table.
  fill    positions outside [0, N) (padding) hold zeros (nobody sends them) or, where
          the op pads with something else, its padding value (iota + compare + select).

Cost: the bytes each device receives, sum over rounds of (hi_r - lo_r) times the
other dims, once per permute in the round (the planner's collective_permute cost).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import prod

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..sharding.device_groups import replica_groups
from ..ir.utils import complex_scalar_attr, complex_splat, const_i32, zeros
from .reducers import through_reshapes


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Round:
    """One source shard per device: local range [lo, hi) of shard b(k) + index, of
    which [send_lo, send_hi) is sent (what receivers need; the rest of the piece
    only serves devices reading their own shard)."""
    index: int
    lo: int
    hi: int
    permutes: tuple[tuple[tuple[int, int], ...], ...]  # (source shard, target shard) pairs
    local: frozenset[int]  # shards that read their own shard in this round
    send_lo: int = 0
    send_hi: int = 0

    @property
    def length(self) -> int:
        return self.hi - self.lo

    @property
    def sent(self) -> int:
        return self.send_hi - self.send_lo


@dataclass(frozen=True)
class Window:
    """Shard k (of n, L elements each) needs global [starts[k], starts[k] + size);
    `periodic`: positions are read modulo n * L (a rotation wraps around)."""
    n: int
    local: int
    starts: tuple[int, ...]
    size: int
    periodic: bool = False

    @property
    def full(self) -> int:
        return self.n * self.local

    @staticmethod
    def affine(n: int, local: int, first: int, step: int, size: int,
               periodic: bool = False) -> "Window":
        """starts[k] = first + k * step."""
        return Window(n, local, tuple(first + k * step for k in range(n)), size, periodic)

    @property
    def is_identity(self) -> bool:
        """Every shard needs exactly its own block: no exchange, no slicing."""
        return self.size == self.local and all(
            s == k * self.local for k, s in enumerate(self.starts))

    @property
    def reads_nothing(self) -> bool:
        """An empty window, or shards of an empty dim (every position is padding): no
        shard has anything to send, so there are no rounds."""
        return self.size == 0 or self.local == 0

    @cached_property
    def base(self) -> tuple[int, ...]:
        """b(k): the shard holding each window's first position (may be out of range)."""
        if self.local == 0:
            return (0,) * self.n
        return tuple(s // self.local for s in self.starts)

    @cached_property
    def out_of_range(self) -> bool:
        """Does some window reach outside [0, N) (padding)?"""
        return not self.periodic and any(s < 0 or s + self.size > self.full
                                         for s in self.starts)

    @cached_property
    def rounds(self) -> tuple[Round, ...]:
        if self.reads_nothing:
            return ()
        L, S = self.local, self.size
        spans = [(s - b * L, s + S - b * L) for s, b in zip(self.starts, self.base)]
        count = max(-(-end // L) for _, end in spans)  # rounds R
        lo0 = min(begin for begin, _ in spans)
        last = max(end for _, end in spans) - (count - 1) * L
        rounds = []
        for r in range(count):
            lo = lo0 if r == 0 else 0
            hi = last if r == count - 1 else L
            pairs, local = [], set()
            send_lo, send_hi = hi, lo
            for k, (s, b) in enumerate(zip(self.starts, self.base)):
                j = b + r
                if not 0 <= j < self.n and not self.periodic:
                    continue
                # What window k needs of what this round carries of shard j.
                need_lo, need_hi = max(s - j * L, lo), min(s + S - j * L, hi)
                if need_lo >= need_hi:
                    continue
                j %= self.n  # (periodic: the shard the position wraps to)
                if j == k:
                    local.add(k)
                else:
                    pairs.append((j, k))
                    send_lo, send_hi = min(send_lo, need_lo), max(send_hi, need_hi)
            if not pairs:
                send_lo = send_hi = lo
            rounds.append(Round(r, lo, hi, _split_by_source(pairs), frozenset(local),
                                send_lo, send_hi))
        return tuple(rounds)

    @cached_property
    def buffer_start(self) -> int:
        """Where each device's buffer starts, relative to b(k) * L."""
        return self.rounds[0].lo if self.rounds else 0

    @cached_property
    def offsets(self) -> tuple[int, ...]:
        """Per shard: where its window starts in its buffer."""
        return tuple(s - b * self.local - self.buffer_start
                     for s, b in zip(self.starts, self.base))

    @cached_property
    def buffer_length(self) -> int:
        return sum(r.length for r in self.rounds)

    def received(self) -> int:
        """Elements (along the dim) each device receives: one piece per permute."""
        return sum(r.sent * len(r.permutes) for r in self.rounds)

    @property
    def permutes(self) -> int:
        return sum(len(r.permutes) for r in self.rounds)


def _split_by_source(pairs: list[tuple[int, int]]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Pairs into collective_permutes in which every source sends once (targets are
    distinct already: one per device and round)."""
    permutes: list[list[tuple[int, int]]] = []
    for pair in pairs:
        for permute in permutes:
            if all(src != pair[0] for src, _ in permute):
                permute.append(pair)
                break
        else:
            permutes.append([pair])
    return tuple(tuple(p) for p in permutes)


def window_bytes(window: Window, local_shape, dim: int, element_bytes: int) -> int:
    """Bytes per device the exchange of `window` along `dim` receives."""
    other = prod(s for d, s in enumerate(local_shape) if d != dim)
    return window.received() * other * element_bytes


# --------------------------------------------------------------------------- windows of ops


@dataclass(frozen=True)
class SlidingWindow:
    """The local form of a sliding window along one dim after the exchange: each
    device's window `window` and the op's attributes along the dim on it."""
    window: Window
    pad_low: int
    pad_high: int


def sliding_window(n: int, size: int, out: int, window: int, stride: int = 1,
                   window_dilation: int = 1, pad_low: int = 0,
                   base_dilation: int = 1) -> SlidingWindow | None:
    """Operands of `size` and results of `out` elements, both in n shards; result i
    reads padded (base-dilated) position i*stride + t*window_dilation, t < window.
    Shard k computes results [kM, (k+1)M) from input positions [starts[k], +S);
    locally the op keeps window, stride and dilations, with padding (pad_low,
    pad_high) on its window. None when shards would need different local paddings
    (a base dilation that does not divide M*stride)."""
    if size % n or out % n:
        return None
    L, M = size // n, out // n
    step = M * stride
    if step % base_dilation:
        return None
    # Dilated-padded positions [k*step, k*step + P) with P covering M windows.
    span = (M - 1) * stride + (window - 1) * window_dilation + 1
    # First input at or after position k*step: i = ceil((k*step - pad_low) / bd).
    first = -(pad_low // base_dilation)  # ceil(-pad_low / bd)
    low = first * base_dilation + pad_low  # where that input sits, relative to k*step
    count = (span - 1 - low) // base_dilation + 1 if span > low else 0
    if count <= 0:
        return None
    high = span - low - ((count - 1) * base_dilation + 1)
    return SlidingWindow(Window.affine(n, L, first, step // base_dilation, count),
                         low, high)


# --------------------------------------------------------------------------- building


class Exchanger:
    """Builds windows on devices (at the current insertion point) for one
    LocalLowering `lw` (per-device tables, channels)."""

    def __init__(self, lw):
        self.lw = lw

    def flag(self, mesh, axes, shards: set[int] | frozenset[int], shape) -> ir.Value:
        """tensor<shape x i1>: true on devices whose shard index is in `shards`."""
        lw = self.lw
        i1 = ir.IntegerType.get_signless(1)
        scalar = lw.shard_scalar(mesh, axes, [int(k in shards) for k in range(
            prod(a.size(mesh) for a in axes))])
        pred = stablehlo.CompareOp(scalar, const_i32(1),
                                   stablehlo.ComparisonDirectionAttr.get("EQ")).result
        return stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(list(shape), i1), pred,
                                          []).result

    def exchange(self, value: ir.Value, mesh, axes, dim: int, window: Window,
                 fill: ir.Value | None = None) -> ir.Value:
        """Device k's window [starts[k], starts[k] + size) of the dim sharded on `axes`
        (n shards of `window.local`): a value whose `dim` has `window.size` elements.
        Positions outside the global dim hold `fill` (None: zeros)."""
        if window.is_identity:
            return value
        vtype = ir.RankedTensorType(value.type)
        shape = list(vtype.shape)
        if window.reads_nothing:
            return self._nothing_to_read(value, dim, window, fill)
        groups = replica_groups(mesh, tuple(axes))
        pieces = []
        everyone = frozenset(range(window.n))
        for rnd in window.rounds:
            piece_shape = list(shape)
            piece_shape[dim] = rnd.length
            piece_type = ir.RankedTensorType.get(piece_shape, vtype.element_type)
            if not rnd.permutes and rnd.local == everyone:
                pieces.append(_slice(value, dim, rnd.lo, rnd.hi))
                continue
            got = None
            sent = None
            if rnd.permutes:
                sent = _slice(value, dim, rnd.send_lo, rnd.send_hi)
                sent_shape = list(shape)
                sent_shape[dim] = rnd.sent
                sent_type = ir.RankedTensorType.get(sent_shape, vtype.element_type)
            for permute in rnd.permutes:
                pairs = [(group[j], group[k]) for group in groups for j, k in permute]
                received = stablehlo.CollectivePermuteOp(
                    sent, ir.DenseIntElementsAttr.get(np.array(pairs, dtype=np.int64)),
                    channel_handle=self.lw.next_channel(), results=[sent_type]).result
                if got is None:
                    got = received
                else:
                    targets = {k for _, k in permute}
                    got = stablehlo.SelectOp(self.flag(mesh, axes, targets, sent_shape),
                                             received, got).result
            if got is not None and rnd.sent != rnd.length:
                got = _pad(got, dim, rnd.send_lo - rnd.lo, rnd.hi - rnd.send_hi)
            if rnd.local:
                own = sent if sent is not None and rnd.sent == rnd.length else _slice(
                    value, dim, rnd.lo, rnd.hi)
                if got is None:
                    got = zeros(piece_type)
                got = stablehlo.SelectOp(self.flag(mesh, axes, rnd.local, piece_shape),
                                         own, got).result
            pieces.append(got if got is not None else _ZeroPiece(piece_type))
        pieces = _merge_zeros(pieces, dim)
        buffer = pieces[0] if len(pieces) == 1 else stablehlo.ConcatenateOp(
            pieces, dim).result
        out_shape = list(shape)
        out_shape[dim] = window.size
        offsets = set(window.offsets)
        if len(offsets) == 1:
            (offset,) = offsets
            if offset != 0 or window.buffer_length != window.size:
                buffer = _slice(buffer, dim, offset, offset + window.size)
        else:
            starts = [const_i32(0)] * len(shape)
            starts[dim] = self.lw.shard_scalar(mesh, axes, window.offsets)
            buffer = stablehlo.DynamicSliceOp(
                buffer, starts, out_shape,
                results=[ir.RankedTensorType.get(out_shape, vtype.element_type)]).result
        if window.out_of_range and fill is not None and not is_zero(fill):
            buffer = self.mask(buffer, mesh, axes, dim, window, fill)
        return buffer

    @staticmethod
    def _nothing_to_read(value: ir.Value, dim: int, window: Window,
                         fill: ir.Value | None) -> ir.Value:
        """The window where no shard holds any of it: empty, or all padding (`fill`)."""
        if window.size == 0:
            return _slice(value, dim, 0, 0)
        vtype = ir.RankedTensorType(value.type)
        shape = list(vtype.shape)
        shape[dim] = window.size
        out_type = ir.RankedTensorType.get(shape, vtype.element_type)
        if fill is None or is_zero(fill):
            return zeros(out_type)
        return stablehlo.BroadcastInDimOp(out_type, fill, []).result

    def mask(self, value: ir.Value, mesh, axes, dim: int, window: Window,
             fill: ir.Value) -> ir.Value:
        """`fill` where the window's global position is outside [0, N)."""
        vtype = ir.RankedTensorType(value.type)
        shape = list(vtype.shape)
        i32 = ir.IntegerType.get_signless(32)
        i1 = ir.IntegerType.get_signless(1)
        position = stablehlo.IotaOp(ir.RankedTensorType.get(shape, i32), dim).result
        start = self.lw.shard_scalar(mesh, axes, window.starts)
        position = stablehlo.AddOp(position, stablehlo.BroadcastInDimOp(
            ir.RankedTensorType.get(shape, i32), start, []).result).result
        pred_type = ir.RankedTensorType.get(shape, i1)

        def compare(bound: int, direction: str) -> ir.Value:
            limit = stablehlo.BroadcastInDimOp(ir.RankedTensorType.get(shape, i32),
                                               const_i32(bound), []).result
            return stablehlo.CompareOp(position, limit,
                                       stablehlo.ComparisonDirectionAttr.get(direction),
                                       results=[pred_type]).result

        inside = stablehlo.AndOp(compare(0, "GE"), compare(window.full, "LT")).result
        spread = stablehlo.BroadcastInDimOp(vtype, fill, []).result
        return stablehlo.SelectOp(inside, value, spread).result


def _slice(value: ir.Value, dim: int, lo: int, hi: int, stride: int = 1) -> ir.Value:
    shape = list(ir.RankedTensorType(value.type).shape)
    if lo == 0 and hi == shape[dim] and stride == 1:
        return value
    starts = [0] * len(shape)
    limits = list(shape)
    strides = [1] * len(shape)
    starts[dim], limits[dim], strides[dim] = lo, hi, stride
    return stablehlo.SliceOp(value, starts, limits, strides).result


class _ZeroPiece:
    """A round nobody needs (its positions are padding on every device)."""

    def __init__(self, value_type: ir.RankedTensorType):
        self.type = value_type


def _merge_zeros(pieces: list, dim: int) -> list[ir.Value]:
    """Consecutive unneeded rounds as one zero constant."""
    merged: list = []
    for piece in pieces:
        if isinstance(piece, _ZeroPiece) and merged and isinstance(merged[-1], _ZeroPiece):
            shape = list(merged[-1].type.shape)
            shape[dim] += piece.type.shape[dim]
            merged[-1] = _ZeroPiece(ir.RankedTensorType.get(shape, piece.type.element_type))
        else:
            merged.append(piece)
    return [zeros(p.type) if isinstance(p, _ZeroPiece) else p for p in merged]


def _pad(value: ir.Value, dim: int, low: int, high: int) -> ir.Value:
    """Zeros before and after `value` along `dim`."""
    vtype = ir.RankedTensorType(value.type)
    rank = len(vtype.shape)
    lows, highs = [0] * rank, [0] * rank
    lows[dim], highs[dim] = low, high
    zero = zeros(ir.RankedTensorType.get([], vtype.element_type))
    return stablehlo.PadOp(value, zero, lows, highs, [0] * rank).result


def constant_scalar(value: ir.Value):
    """The number a scalar stablehlo.constant holds (numpy scalar), else None."""
    value = through_reshapes(value)
    if not isinstance(value, ir.OpResult) or value.owner.operation.name != "stablehlo.constant":
        return None
    attr = value.owner.operation.attributes["value"]
    if isinstance(ir.ShapedType(attr.type).element_type, ir.ComplexType):
        return complex_splat(attr)
    try:
        array = np.array(ir.DenseElementsAttr(attr))
    except Exception:
        return None
    array = array.reshape(-1)
    return array[0] if array.size == 1 else None


def is_zero(value: ir.Value) -> bool:
    number = constant_scalar(value)
    return number is not None and number == 0


def scalar_constant(element_type: ir.Type, number) -> ir.Value:
    """A tensor<element_type> constant holding `number`."""
    scalar = ir.RankedTensorType.get([], element_type)
    if isinstance(element_type, ir.ComplexType):
        return stablehlo.ConstantOp(complex_scalar_attr(element_type, number)).result
    if isinstance(element_type, ir.FloatType):
        attr = ir.FloatAttr.get(element_type, float(number))
    else:
        attr = ir.IntegerAttr.get(element_type, int(number))
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(scalar, attr)).result
