"""shardpy-to-local's lowering of sdy collectives to stablehlo collectives.

  sdy.all_gather / all_reduce / reduce_scatter / all_to_all / collective_permute
      stablehlo collectives with replica groups over the collective's axes
      (shardpy.sharding.device_groups: logical device ids, the mesh's device order), a
      fresh channel handle each, global device ids
  sdy.all_slice                  a local dynamic_slice at this device's offsets
  sdy.replicated_to_unreduced    the value kept on the first device along the axes,
                                 zeros on the others
  sdy.reshard between meshes     (the only one shardpy-reshard-to-collectives leaves)
                                 rounds of collective_permutes, like a permute

Uneven dims (padded shards, shardpy.lowering.padding): a collective pads a whole dim
before splitting it and trims it after gathering it whole. Per-op lowerings build
their collectives with the same methods (all_reduce, all_gather, groups, next_channel).

Which ops are lowered here, split by XLA or carry channels, it asks the op registry
(shardpy.ops: `collective_lowering`, `xla_splits_all_to_all`, `channel`).
"""
from __future__ import annotations

from math import prod

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..ir.diagnostics import ShardpyError
from ..ir.utils import const_i32, reducer_region, zeros
from ..lowering import padding
from ..ops.registry import ops_with
from ..sharding import axis_algebra as aa
from ..sharding.device_groups import (attribute_mesh, group_index, mesh_axes_attr,
                                      permute_rounds, replica_groups, strided_range)
from ..sharding.model import AxisRef, TensorSharding
from ..sharding.state import manual_axes_around
from .reshard_planner import same_mesh
from .reshard_steps import refine

# The ops lower_collective lowers (sdy.reshard: only between meshes, a cross-mesh step
# shardpy-reshard-to-collectives leaves, lowered like a collective_permute).
COLLECTIVES = ops_with(lambda e: e.collective_lowering)
# Producers XLA:CPU splits an all-to-all over (found by test/fuzz, see the regressions
# fuzz_all_to_all_of_{concatenate,pad}_rejected_by_xla.mlir; operands with other users:
# fuzz_all_to_all_of_sliced_value_rejected_by_xla.mlir).
SPLIT_BY_XLA_BEFORE_ALL_TO_ALL = ops_with(lambda e: e.xla_splits_all_to_all)
# Reducers whose float all_reduces cross as integers in IEEE total order
# (CollectiveLowering._ordered_all_reduce: the runtime's float max/min drops NaN).
ORDERED_REDUCERS = frozenset({"stablehlo.maximum", "stablehlo.minimum"})
# The float types it applies to: IEEE formats, where the integer extremes of their width
# (all bits but the sign set, or only the sign) are NaN patterns (not so in the FNUZ
# 8-bit formats, whose all_reduces stay as they are).
ORDERED_FLOATS = (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)


class CollectiveLowering:
    """The collective-building half of to_local.LocalLowering (a base class of it: the
    per-op lowerings call these methods on the LocalLowering they get). It uses the
    LocalLowering's `state`, `shardings`, `num_devices`, `local_of`, `device_scalar`,
    `_record` and `_note`, and its `channel` (the next free channel handle), `_groups`
    and `_all_reduce_groups` memos."""

    # Per-device code whose size does not depend on the device count (issue 17):
    # replica groups named by mesh axes, per-shard values from the partition id
    # (shard_scalar) ("on"); dense lists of device ids and per-device tables ("off"); "auto": on above
    # COMPACT_ABOVE devices, where lists and tables grow large, and off below, where
    # they are short and readable.
    compact = "auto"
    COMPACT_ABOVE = 64
    _groups_frame = None  # the module's one mesh of mesh-axes groups (groups)

    @property
    def is_compact(self) -> bool:
        if self.compact == "auto":
            return self.num_devices > self.COMPACT_ABOVE
        return self.compact == "on"

    def arithmetic_offsets(self, mesh) -> bool:
        """Compute shard offsets on `mesh` from the partition id (shard_offset) rather
        than read them from a table of one entry per device: with compact groups, on a
        mesh of every device in iota order."""
        return self.is_compact and not mesh.device_ids and bool(mesh.axes) and \
            mesh.size == self.num_devices

    def shard_offset(self, mesh, axes, scale: int) -> ir.Value:
        """tensor<i32>: this device's shard index along `axes` of `mesh` (an iota mesh
        of every device: arithmetic_offsets) times `scale`, computed from the partition
        id: each axis' coordinate is a digit of it, (id // stride) % size, weighted as
        the axes nest (major first)."""
        if not axes:
            return const_i32(0)
        pid = self.partition_id()
        total = None
        weight = scale
        for ref in reversed(tuple(axes)):
            lo, hi = strided_range(mesh, ref)
            digit = pid if lo == 1 else stablehlo.DivOp(pid, const_i32(lo)).result
            if hi < mesh.size:
                digit = stablehlo.RemOp(digit, const_i32(hi // lo)).result
            term = digit if weight == 1 else stablehlo.MulOp(digit, const_i32(weight)).result
            total = term if total is None else stablehlo.AddOp(total, term).result
            weight *= hi // lo
        return total

    def shard_scalar(self, mesh, axes, per_shard) -> ir.Value:
        """tensor<i32>: per_shard[k] on the devices that hold shard k along `axes` of
        `mesh` (0 on devices outside it). Compact (arithmetic_offsets): from the
        partition id, per_shard as arithmetic where it is affine in k (offsets), else
        read from a table of one entry per shard; otherwise from a table of one entry
        per device."""
        axes = tuple(axes)
        if axes and self.arithmetic_offsets(mesh):
            first = per_shard[0]
            step = per_shard[1] - first if len(per_shard) > 1 else 0
            if all(v == first + k * step for k, v in enumerate(per_shard)):
                if step == 0:
                    return const_i32(first)
                value = self.shard_offset(mesh, axes, step)
                return value if first == 0 else stablehlo.AddOp(value, const_i32(first)).result
            i32 = ir.IntegerType.get_signless(32)
            table = stablehlo.ConstantOp(ir.DenseElementsAttr.get(
                np.array(per_shard, dtype=np.int32))).result
            picked = stablehlo.DynamicSliceOp(
                table, [self.shard_offset(mesh, axes, 1)], [1],
                results=[ir.RankedTensorType.get([1], i32)]).result
            return stablehlo.ReshapeOp(ir.RankedTensorType.get([], i32), picked).result
        table = [0] * self.num_devices
        if not axes:  # (every device of the mesh holds shard 0)
            for device in mesh.devices:
                table[device] = per_shard[0]
        else:
            for device in mesh.devices:
                table[device] = per_shard[group_index(mesh, axes, device)]
        return self.device_scalar(table)

    def next_channel(self) -> ir.Attribute:
        handle = self.channel
        self.channel += 1
        return stablehlo.ChannelHandle.get(handle, 1)

    def groups(self, mesh, axes) -> ir.Attribute:
        """replica_groups of a collective over `axes` of `mesh`: named by the axes
        (device_groups.mesh_axes_attr, a size independent of the device count) where
        `is_compact` says so and the mesh has every device in iota order, else a
        dense list. A mesh of fewer devices than the program's: XLA wants every device
        in one group (of one size), so the devices outside the mesh (holding nothing of
        its values) make groups of their own, in order; a collective over groups that do
        not divide them is an error."""
        key = (mesh, tuple(axes))
        found = self._groups.get(key)
        if found is None and self.is_compact and mesh.size == self.num_devices:
            # One attribute mesh for the whole module: XLA (jaxlib 0.10.2) names the
            # meshes of these attributes by one symbol, so a second one is lost
            # ("Unknown axis"). The first mesh that has one sets it.
            frame = self._groups_frame
            if frame is None:
                frame = self._groups_frame = attribute_mesh(mesh)
            if frame is not None:
                found = self._groups[key] = mesh_axes_attr(mesh, key[1], frame)
        if found is None:
            groups = replica_groups(mesh, key[1])
            outside = []
            # (num_devices reads the module ahead when asked early: only asked where
            # some declared mesh is larger, or this one is not declared)
            declared = self.state.codec.meshes.values()
            if mesh not in declared or any(m.size > mesh.size for m in declared
                                           if not m.is_maximal):
                inside = set(mesh.devices)
                outside = [d for d in range(self.num_devices) if d not in inside]
            if outside:
                size = len(groups[0])
                if len(outside) % size:
                    at = self._ops[self._at].location if 0 <= self._at < len(self._ops) \
                        else None
                    raise ShardpyError(
                        f"a collective over groups of {size} devices of mesh {mesh} "
                        f"({mesh.size} devices) cannot run in a program of "
                        f"{self.num_devices} devices (the other {len(outside)} devices do "
                        f"not form such groups); not supported yet", at)
                groups = tuple(groups) + tuple(tuple(outside[i:i + size])
                                               for i in range(0, len(outside), size))
            found = self._groups[key] = ir.DenseIntElementsAttr.get(
                np.array(groups, dtype=np.int64))
        return found

    def all_reduce(self, value: ir.Value, axes, mesh, reducer: str = "stablehlo.add"
                    ) -> ir.Value:
        groups = self.groups(mesh, axes)
        if reducer in ORDERED_REDUCERS and isinstance(value.type.element_type,
                                                      ORDERED_FLOATS):
            return self._ordered_all_reduce(value, groups, reducer)
        return self._all_reduce_over(value, groups, reducer)

    def _ordered_all_reduce(self, value: ir.Value, groups: ir.Attribute, reducer: str
                            ) -> ir.Value:
        """A float max/min across devices that keeps stablehlo's semantics (NaN wins,
        -0 < +0): the runtime's all_reduce does not (XLA:CPU's drops NaN: jax's own
        pmax of [nan, 1, 2, 3] is 3), so the values cross as integers of their width
        in IEEE total order, where an integer max/min is exact, and come back. Same
        bytes, one collective; the elementwise ops around it are fused by XLA.

          key = bits ^ ((bits >>s (w-1)) & INT_MAX)     (negative floats: order reversed)
          key = isnan(x) ? (max: INT_MAX, min: INT_MIN) : key    (NaN of any sign wins)
          all_reduce(key) with the integer max/min; bits = the same map (an involution:
          the sign bit is kept), bitcast back: INT_MAX and INT_MIN are NaN patterns.

        Before (all_reduce of tensor<4xf32> with stablehlo.maximum), after:

          %b = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
          %k = xor %b, (and (shift_right_arithmetic %b, 31), 2147483647)
          %n = stablehlo.compare NE, %x, %x, FLOAT
          %r = "stablehlo.all_reduce"(select %n, 2147483647, %k) ({maximum on i32})
          %y = stablehlo.bitcast_convert (xor %r, (and (%r >>s 31), 2147483647)) -> f32
        """
        value_type = ir.RankedTensorType(value.type)
        width = ir.FloatType(value_type.element_type).width
        int_type = ir.IntegerType.get_signless(width)
        int_tensor = ir.RankedTensorType.get(value_type.shape, int_type)
        high = (1 << (width - 1)) - 1  # INT_MAX: every bit but the sign

        def splat(number: int) -> ir.Value:
            return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(
                int_tensor, ir.IntegerAttr.get(int_type, number))).result

        # `value` is read once (callers replace its other uses: ir.utils.chain_readers).
        bits = stablehlo.BitcastConvertOp(int_tensor, value).result
        shift, low_bits = splat(width - 1), splat(high)

        def total_order(bits: ir.Value) -> ir.Value:  # (its own inverse)
            sign = stablehlo.ShiftRightArithmeticOp(bits, shift).result
            return stablehlo.XorOp(bits, stablehlo.AndOp(sign, low_bits)).result

        same = stablehlo.BitcastConvertOp(value_type, bits).result  # (XLA folds it)
        is_nan = stablehlo.CompareOp(same, same, stablehlo.ComparisonDirectionAttr.get("NE"),
                                     compare_type=stablehlo.ComparisonTypeAttr.get("FLOAT"))
        nan_key = low_bits if reducer == "stablehlo.maximum" else splat(-high - 1)
        key = stablehlo.SelectOp(is_nan.result, nan_key, total_order(bits)).result
        reduced = self._all_reduce_over(key, groups, reducer)
        return stablehlo.BitcastConvertOp(value_type, total_order(reduced)).result

    def _all_reduce_over(self, value: ir.Value, groups: ir.Attribute,
                         reducer: str = "stablehlo.add") -> ir.Value:
        # What stablehlo.AllReduceOp builds, made directly: one per partial sum
        # (thousands in large programs), at half the cost.
        value_type = value.type
        op = ir.Operation.create("stablehlo.all_reduce", results=[value_type],
                                 operands=[value],
                                 attributes={"replica_groups": groups,
                                             "channel_handle": self.next_channel(),
                                             "use_global_device_ids": ir.UnitAttr.get()},
                                 regions=1)
        reducer_region(op.regions[0], value_type.element_type, reducer)
        return op.result

    def all_gather(self, value: ir.Value, dim: int, axes, mesh) -> ir.Value:
        """`value` gathered along `dim` over `axes` (shards in group order: the order in
        which a dim sharded on `axes` numbers them)."""
        shape = list(value.type.shape)
        if shape[dim] == 0:
            # Empty shards gather to an empty dim (StableHLO rejects an all_gather
            # along a dim of size zero): nothing to exchange.
            return _empty(value.type)
        shape[dim] *= prod(a.size(mesh) for a in axes)
        return stablehlo.AllGatherOp(
            [ir.RankedTensorType.get(shape, value.type.element_type)], [value], dim,
            self.groups(mesh, axes), channel_handle=self.next_channel(),
            use_global_device_ids=True).results[0]

    def all_gather_together(self, values: list[ir.Value], dim: int, axes, mesh
                            ) -> list[ir.Value]:
        """Each of `values` (one shape) gathered along `dim` over `axes`, in one
        all_gather when their element types have one bit width (>= 8): bitcast to one
        integer type and stacked on a new leading dim, gathered, unstacked. Small
        per-shard results (argmax pairs, top-k candidates) cost one collective's latency
        instead of one each."""
        widths = {_bit_width(v.type.element_type) for v in values}
        shapes = {tuple(v.type.shape) for v in values}
        if len(values) < 2 or len(shapes) != 1 or len(widths) != 1 or \
                min(widths) is None or min(widths) < 8:
            return [self.all_gather(v, dim, axes, mesh) for v in values]
        shape = list(values[0].type.shape)
        bits = ir.IntegerType.get_signless(widths.pop())
        parts = []
        for v in values:
            if v.type.element_type != bits:
                v = stablehlo.BitcastConvertOp(ir.RankedTensorType.get(shape, bits), v).result
            parts.append(stablehlo.ReshapeOp(ir.RankedTensorType.get([1] + shape, bits),
                                             v).result)
        packed = stablehlo.ConcatenateOp(parts, 0).result
        gathered = self.all_gather(packed, dim + 1, axes, mesh)
        out_shape = list(gathered.type.shape)[1:]
        rank = len(out_shape) + 1
        outs = []
        for i, v in enumerate(values):
            start, limit = [i] + [0] * (rank - 1), [i + 1] + out_shape
            part = stablehlo.SliceOp(gathered, start, limit, [1] * rank).result
            part = stablehlo.ReshapeOp(ir.RankedTensorType.get(out_shape, bits), part).result
            if v.type.element_type != bits:
                part = stablehlo.BitcastConvertOp(
                    ir.RankedTensorType.get(out_shape, v.type.element_type), part).result
            outs.append(part)
        return outs

    def lower_collective(self, op: ir.Operation, name: str) -> None:
        """One sdy collective (`name`, one of COLLECTIVES) -> stablehlo ops on local
        shards, its result recorded with its sharding and global type."""
        operand = op.operands[0]
        result = op.results[0]
        target = self.state.result_sharding(op, 0)
        self._note(target)
        global_type = result.type
        source = self.shardings.get(operand) or TensorSharding.replicated_on(
            target.mesh, target.rank, target.mesh_name)
        mesh = target.mesh
        local_out = self.local_of(global_type, target)
        with op.location, ir.InsertionPoint(op):
            value = operand
            if name == "sdy.all_reduce":
                # (one answer per pair of shardings: thousands of partial sums, few pairs)
                key = (id(source), id(target))
                found = self._all_reduce_groups.get(key)
                if found is None or found[0] is not source or found[1] is not target:
                    axes = _minus(source.unreduced, target.unreduced, mesh)
                    found = self._all_reduce_groups[key] = (source, target,
                                                            self.groups(mesh, axes))
                value = self._all_reduce_over(value, found[2])
            elif name == "sdy.all_gather":
                for d, (s, t) in enumerate(zip(source.dims, target.dims)):
                    axes = _suffix_after(s.axes, t.axes, mesh)
                    if axes:
                        value = self.all_gather(value, d, axes, mesh)
                        # A dim gathered whole: its padding sliced off.
                        value = _fit(value, d, local_out.shape[d], not t.axes, op)
            elif name == "sdy.all_slice":
                value = self._all_slice(value, source, target, local_out, op)
            elif name == "sdy.reduce_scatter":
                for d, (s, t) in enumerate(zip(source.dims, target.dims)):
                    axes = _suffix_after(t.axes, s.axes, mesh)
                    if axes:
                        group = prod(a.size(mesh) for a in axes)
                        # A whole dim padded to whole shards first.
                        value = _fit(value, d, local_out.shape[d] * group, not s.axes, op)
                        if local_out.shape[d] == 0:
                            # An empty dim scatters to empty shards (StableHLO rejects a
                            # reduce_scatter along a dim of size zero): nothing to sum.
                            value = _empty(value.type)
                            continue
                        shape = list(value.type.shape)
                        shape[d] = local_out.shape[d]
                        rs = stablehlo.ReduceScatterOp(
                            ir.RankedTensorType.get(shape, value.type.element_type), value, d,
                            self.groups(mesh, axes), channel_handle=self.next_channel(),
                            use_global_device_ids=True)
                        reducer_region(rs.operation.regions[0], value.type.element_type,
                                        "stablehlo.add")
                        value = rs.result
                scattered = [a for s, t in zip(source.dims, target.dims)
                             for a in _suffix_after(t.axes, s.axes, mesh)]
                rest = _minus(_minus(source.unreduced, target.unreduced, mesh), scattered,
                              mesh)
                if rest:
                    value = self.all_reduce(value, rest, mesh)
            elif name == "sdy.all_to_all":
                src_dim, tgt_dim, axes = _moved_axes(source, target, mesh)
                group = prod(a.size(mesh) for a in axes)
                # Uneven dims: a whole target dim padded to whole chunks before, a source
                # dim gathered whole trimmed after.
                value = _fit(value, tgt_dim, local_out.shape[tgt_dim] * group,
                             not source.dims[tgt_dim].axes, op)
                moved = list(value.type.shape)
                moved[tgt_dim] = local_out.shape[tgt_dim]
                moved[src_dim] *= group
                if (isinstance(value, ir.OpResult) and value.owner.operation.name
                        in SPLIT_BY_XLA_BEFORE_ALL_TO_ALL) or _has_other_users(value, op):
                    # XLA:CPU rewrites an all-to-all into a tuple all-to-all of slices of
                    # its operand (of a concatenate or pad: of the pieces; its slices are
                    # merged with equal slices other users take, laid out differently)
                    # and then rejects it ("operands with different shapes"); a barrier
                    # gives the all-to-all an operand of its own.
                    value = stablehlo.OptimizationBarrierOp([value]).results[0]
                value = stablehlo.AllToAllOp([value], tgt_dim, src_dim, group,
                                             self.groups(mesh, axes),
                                             channel_handle=self.next_channel(),
                                             results=[ir.RankedTensorType.get(
                                                 moved, local_out.element_type)]).results[0]
                value = _fit(value, src_dim, local_out.shape[src_dim],
                             not target.dims[src_dim].axes, op)
            elif name == "sdy.replicated_to_unreduced":
                value = self._keep_on_first(value, mesh, _minus(target.unreduced,
                                                                source.unreduced, mesh))
            elif name in ("sdy.collective_permute", "sdy.reshard"):
                if name == "sdy.reshard" and same_mesh(source, target):
                    raise ShardpyError("internal: an sdy.reshard on one mesh is left for "
                                       "shardpy-to-local", op.location)
                value = self._permute(value, source, target, local_out,
                                      manual_axes_around(op))
        if value.type != local_out:
            raise ShardpyError(f"internal: lowering {name} gave {value.type}, expected "
                               f"{local_out}", op.location)
        self._record(value, target, global_type)
        result.replace_all_uses_with(value)
        op.erase()

    def _permute(self, value: ir.Value, source: TensorSharding, target: TensorSharding,
                 local_out: ir.Type, manual: tuple[str, ...] = ()) -> ir.Value:
        """Each device of `target` gets its block from a device holding it in `source`
        (same shard shapes; the meshes may differ: device_groups.permute_rounds), at
        its own coordinates on the `manual` axes (inside a manual computation, devices
        along them hold different values). A round of pairs is one collective_permute;
        a device takes the buffer of the round that serves it (a selection by partition
        id after the first round). A first round where every device keeps its block
        moves nothing: alone, it is a relabel; before other rounds, an identity
        collective_permute, so that every buffer the selection reads is laid out alike
        (read as it was, XLA:CPU fused the selection into a reduction that summed in
        another order on the devices keeping their block: replicas 4 ulps apart, fuzz
        seed 9602321, Regressions/cross_mesh_selection_keeps_replicas_identical.mlir)."""
        rounds = permute_rounds(source, target, self.num_devices, manual)
        out = value
        for i, pairs in enumerate(rounds):
            if i == 0 and len(rounds) == 1 and all(s == t for s, t in pairs):
                # A relabel still makes a value of its own, a reshape to the same type
                # that XLA drops: the lowering keeps one sharding per value, and the
                # source's stays for its other users.
                out = stablehlo.ReshapeOp(local_out, value).result
                continue
            moved = stablehlo.CollectivePermuteOp(
                value, ir.DenseIntElementsAttr.get(np.array(pairs, dtype=np.int64)),
                channel_handle=self.next_channel(), results=[local_out]).result
            if i == 0:
                out = moved
                continue
            served = [0] * self.num_devices
            for _, receiver in pairs:
                served[receiver] = 1
            flag = stablehlo.CompareOp(self.device_scalar(served), const_i32(1),
                                       stablehlo.ComparisonDirectionAttr.get("EQ")).result
            flag = stablehlo.BroadcastInDimOp(
                ir.RankedTensorType.get(local_out.shape, ir.IntegerType.get_signless(1)),
                flag, []).result
            out = stablehlo.SelectOp(flag, moved, out).result
        return out

    def _keep_on_first(self, value: ir.Value, mesh, axes) -> ir.Value:
        """The value on the first device along `axes`, zeros on the others."""
        flag = self.shard_scalar(mesh, axes, [1] + [0] * (
            prod(a.size(mesh) for a in axes) - 1))
        i1 = ir.IntegerType.get_signless(1)
        keep = stablehlo.CompareOp(flag, const_i32(1),
                                   stablehlo.ComparisonDirectionAttr.get("EQ")).result
        keep = stablehlo.BroadcastInDimOp(
            ir.RankedTensorType.get(value.type.shape, i1), keep, []).result
        return stablehlo.SelectOp(keep, value, zeros(value.type)).result

    def _all_slice(self, value, source, target, local_out, op) -> ir.Value:
        mesh = target.mesh
        sliced = []  # per dim: the axes it is sliced along (after any padding)
        for d, (s, t) in enumerate(zip(source.dims, target.dims)):
            axes = _suffix_after(t.axes, s.axes, mesh)
            sliced.append(axes)
            if axes:
                # A whole dim padded to whole shards first (uneven dims).
                value = _fit(value, d, local_out.shape[d] * prod(a.size(mesh) for a in axes),
                             not s.axes, op)
        offsets = [self.shard_scalar(mesh, axes, [k * size for k in range(
            prod(a.size(mesh) for a in axes))]) for axes, size in zip(sliced, local_out.shape)]
        return stablehlo.DynamicSliceOp(value, offsets, list(local_out.shape),
                                        results=[local_out]).result


def _has_other_users(value: ir.Value, op: ir.Operation) -> bool:
    return any(use.owner != op for use in value.uses)


def _fit(value: ir.Value, dim: int, size: int, whole: bool, op) -> ir.Value:
    """`value` with `dim` padded or trimmed to `size`: only where that side of the
    collective holds the dim whole (elsewhere the planner moves only blocks that line
    up, padding included: shardpy.lowering.padding.exact_step)."""
    if value.type.shape[dim] != size and not whole:
        raise ShardpyError(f"internal: {op.name} moves blocks of dim {dim} that do not line "
                           f"up ({value.type.shape[dim]} vs {size} elements)", op.location)
    return padding.fit_dim(value, dim, size)


def _suffix_after(longer, shorter, mesh) -> list[AxisRef]:
    """The axes `longer` has after `shorter` (as a sub-axis-exact suffix)."""
    a, b, _, _ = refine([list(longer)], [list(shorter)], [], [], mesh.axes)
    a, b = a[0], b[0]
    if a[:len(b)] != b:
        raise ShardpyError(f"internal: {list(shorter)} is not a prefix of {list(longer)}")
    return aa.merge_consecutive(a[len(b):], mesh.axes)


def _minus(axes, removed, mesh) -> list[AxisRef]:
    """The parts of `axes` not covered by `removed`, exact to sub-axes
    ("x" minus "x":(1)2 is "x":(2)2)."""
    key = (tuple(axes), tuple(removed), mesh)
    found = _MINUS_MEMO.get(key)
    if found is None:
        if len(_MINUS_MEMO) > 4096:
            _MINUS_MEMO.clear()
        pieces, gone, _, _ = refine([list(axes)], [list(removed)], [], [], mesh.axes)
        found = _MINUS_MEMO[key] = tuple(aa.merge_consecutive(
            [p for p in pieces[0] if p not in gone[0]], mesh.axes))
    return list(found)


_MINUS_MEMO: dict = {}  # (axes, removed, mesh) -> axes left (values: plain tuples)


def _empty(value_type: ir.Type) -> ir.Value:
    """A new value of an empty tensor type, for a collective with nothing to exchange:
    its result must not be its operand, whose recorded sharding it would overwrite
    (seed 900904: an all_gather along an empty dim, then an all_to_all of its operand)."""
    return zeros(value_type)


def _moved_axes(source: TensorSharding, target: TensorSharding, mesh):
    """(src_dim, tgt_dim, axes) of an all_to_all, read off the shardings around it: the
    dim that loses sharding gives its minor-most axes to the dim that gains them."""
    src_dim = next(d for d in range(source.rank) if target.dim_shards(d) < source.dim_shards(d))
    tgt_dim = next(d for d in range(source.rank) if target.dim_shards(d) > source.dim_shards(d))
    axes = _suffix_after(source.dims[src_dim].axes, target.dims[src_dim].axes, mesh)
    return src_dim, tgt_dim, axes


def _bit_width(element: ir.Type) -> int | None:
    if isinstance(element, ir.IntegerType):
        return ir.IntegerType(element).width
    if isinstance(element, ir.FloatType):
        return ir.FloatType(element).width
    return None


# Ops that carry a channel handle (program ops, in manual computation bodies too).
_CHANNEL_OPS = ops_with(lambda e: e.channel)


def first_free_channel(per_func) -> int:
    """`per_func`: (func, ops, their names) per function."""
    highest = 0
    for _, ops, names in per_func:
        for op, name in zip(ops, names):
            if name in _CHANNEL_OPS and "channel_handle" in op.attributes:
                highest = max(highest,
                              stablehlo.ChannelHandle(op.attributes["channel_handle"]).handle)
    return highest + 1
