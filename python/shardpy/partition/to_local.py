"""Global -> per-device: local shapes, stablehlo collectives, per-device values.

After shardpy-insert-reshards and shardpy-reshard-to-collectives every op computes on
local shards as it is, so most ops only get their types shrunk to the local shape of
their sharding. The rest:

  sdy collectives       stablehlo.all_gather / all_reduce / reduce_scatter / all_to_all /
                        collective_permute with replica groups over the collective's axes
                        (shardpy.sharding.device_groups: logical device ids, the mesh's device
                        order), a fresh channel handle each, global device ids;
                        sdy.all_slice is a local dynamic_slice
  ops with a `lower`    their own fix-ups (local_ops.LOCAL_OPS: constant and iota take
  in local_ops          per-device offsets from a table indexed by partition_id; a
                        max/min reduce over sharded dims is finished by an all_reduce;
                        windowed ops on sharded dims exchange halos with
                        collective_permutes (lowering_windowed.py, halo.py); ...)
  manual_computation    its body is already per-device code: inlined
  uneven dims           local shapes are ceil-sized (padded shards, shardpy.lowering.padding):
                        ops with LocalOp.padding get their operands' padding masked
                        first; a collective pads a whole dim before splitting it and
                        trims it after gathering it whole. Lowerings read global sizes
                        from `global_shape` (recorded before shrinking; a replacement
                        value inherits its original's through `takes_over`)

One walk over the program: each op's results' shardings and global types are read when
the walk reaches the op (operands come first; `num_devices` reads ahead when a lowering
asks early), then the op is lowered.

The module is marked `shardpy.per_device`; `@main` keeps its arguments' and results'
`sdy.sharding`s (the runtime's contract), other sharding attributes are dropped.
"""
from __future__ import annotations

from math import prod

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..sharding.device_groups import group_index, permute_rounds, replica_groups
from ..ir.diagnostics import ShardpyError
from .insert_reshards import program_ops
from ..ir.utils import (after, const_i32, filter_signature_attrs, inline_region_before,
                       public_main, reducer_region, zero_attr)
from ..lowering import padding
from ..ops.registry import LOCAL_OPS, SOURCE_OPS
from .reshard_planner import same_mesh
from ..sharding.sdy_codec import SHARDING_ATTR
from ..sharding.model import AxisRef, TensorSharding
from ..sharding.state import SINGLE_SHARDING_ATTR, ShardingState

PER_DEVICE_ATTR = "shardpy.per_device"
# (sdy.reshard: only between meshes, a cross-mesh step shardpy-reshard-to-collectives
# leaves, lowered like a collective_permute)
COLLECTIVES = ("sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.all_reduce",
               "sdy.reduce_scatter", "sdy.collective_permute", "sdy.replicated_to_unreduced",
               "sdy.reshard")
# Producers XLA:CPU splits an all-to-all over (found by test/fuzz, see the regressions
# fuzz_all_to_all_of_{concatenate,pad}_rejected_by_xla.mlir; operands with other users:
# fuzz_all_to_all_of_sliced_value_rejected_by_xla.mlir).
SPLIT_BY_XLA_BEFORE_ALL_TO_ALL = frozenset({"stablehlo.concatenate", "stablehlo.pad"})


class LocalLowering:
    def __init__(self, module: ir.Operation):
        self.module = module
        self.state = ShardingState(module)
        # Sharded values (a value missing is replicated), read as the walk reaches them:
        # their shardings and global types (before shrinking).
        self.shardings: dict[ir.Value, TensorSharding | None] = {}
        self.global_types: dict[ir.Value, ir.Type] = {}
        self.channel = 1  # the first free channel handle (run)
        self._num_devices: int | None = None  # (num_devices, once asked for)
        self._largest_mesh = 1  # of the shardings read so far (_note)
        # Not read yet: the current function's ops after index _at, and the functions
        # after it (num_devices reads them ahead when asked mid-walk).
        self._ops: list = []
        self._names: list = []
        self._at = -1
        self._funcs_left: list = []
        self._pid: dict = {}
        self._local_types: dict = {}  # (global type, id(sharding)) -> (sharding, local)
        self._groups: dict = {}  # (mesh, axes) -> replica_groups attribute
        # (id(source), id(target)) of an sdy.all_reduce -> (source, target, its groups)
        self._all_reduce_groups: dict = {}
        # sdy.sharding attribute -> per result (sharding, {global type: _Shrunk})
        self._per_attr: dict = {}
        self._pads: dict = {}  # (global type, id(sharding)) -> (sharding, pads a dim)
        # A reduce's `dimensions` attribute -> its dims (lowering_basic.reduced_axes);
        # per lowering, not per process: it holds attributes, and they their context.
        self.reduced_dims: dict[ir.Attribute, tuple[int, ...]] = {}
        self.any_uneven = False  # does any value read so far have padded shards

    # -- driver --------------------------------------------------------------------------
    def run(self) -> None:
        funcs = [op.operation for op in self.module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"]
        # Each function's ops and their names (two lists: 50k (op, name) pairs would
        # cost more than the names, mostly in garbage collection).
        per_func = []
        for f in funcs:
            ops = program_ops(f)
            per_func.append((f, ops, [op.name for op in ops]))
        self.channel = _first_free_channel(per_func)
        main = public_main(self.module)
        main = main.operation if main else None
        for i, (f, ops, names) in enumerate(per_func):
            self._funcs_left = per_func[i + 1:]
            self._lower_func(f, ops, names, is_main=f == main)
        self._ops, self._names, self._funcs_left = [], [], []
        self.module.attributes[PER_DEVICE_ATTR] = ir.UnitAttr.get()
        self.module.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(
            ir.IntegerType.get_signless(32), self.num_devices)

    @property
    def num_devices(self) -> int:
        """The size of the largest (non-maximal) mesh any value of the module is sharded
        on, 1 if none. Asked before the walk has read every value (a per-device table),
        the values it has not reached yet are read ahead."""
        if self._num_devices is None:
            self._num_devices = max(self._largest_mesh, self._largest_mesh_ahead())
        return self._num_devices

    def _largest_mesh_ahead(self) -> int:
        state = self.state
        shardings = []
        ahead = [(self._ops[self._at + 1:], self._names[self._at + 1:])] + [
            (ops, names) for _, ops, names in self._funcs_left]
        for ops, names in ahead:
            for op, name in zip(ops, names):
                shardings += state.decode_results(op, op.results)
                if name in _REGION_ARG_OPS:
                    shardings += [state.of(arg) for region in op.regions
                                  for arg in region.blocks[0].arguments]
        for f, _, _ in self._funcs_left:
            shardings += [state.of(arg) for arg in f.regions[0].blocks[0].arguments]
        return max([1] + [s.mesh.size for s in shardings
                          if s is not None and not s.mesh.is_maximal])

    def _note(self, sharding: TensorSharding) -> None:
        if not sharding.mesh.is_maximal and sharding.mesh.size > self._largest_mesh:
            self._largest_mesh = sharding.mesh.size

    def _record(self, value: ir.Value, sharding: TensorSharding | None, value_type) -> None:
        """Remembers a value's sharding and global type (values the main loop does not
        read itself: arguments, sdy ops' results)."""
        if sharding is None:
            return
        self.shardings[value] = sharding
        self.global_types[value] = value_type
        self._note(sharding)
        if not self.any_uneven:
            key = (value_type, id(sharding))
            found = self._pads.get(key)
            if found is None or found[0] is not sharding:
                found = self._pads[key] = (sharding, self._shrunk(value_type, sharding)[1])
            self.any_uneven = found[1]

    def _read_arg(self, arg: ir.Value) -> None:
        """A function's or region's argument: read, and shrunk to its local type."""
        sharding = self.state.of(arg)
        if sharding is not None:
            value_type = arg.type
            self._record(arg, sharding, value_type)
            arg.set_type(self.local_of(value_type, sharding))

    def _per_value(self, attr: ir.Attribute, op: ir.Operation) -> tuple:
        """An op's #sdy.sharding_per_value: per result (sharding, {global type:
        _shrunk}), once per distinct attribute."""
        found = self._per_attr[attr] = tuple(
            (s, {}) for s in self.state.decode_results(op, op.results))
        for sharding, _ in found:
            if sharding is not None:
                self._note(sharding)
        return found

    def _shrunk(self, value_type: ir.Type, sharding: TensorSharding):
        """(the local type where it differs from `value_type`, else None; whether
        `sharding` pads a dim of `value_type`: no op needs its operands' padding
        masked while no value read so far has any)."""
        if not isinstance(value_type, ir.RankedTensorType):
            return None, False
        shape = value_type.shape
        local = sharding.local_shape(list(shape))
        uneven = any(shape[d] % sharding.dim_shards(d) for d in range(sharding.rank)
                     if sharding.dims[d].axes)
        if list(local) == shape:
            return None, uneven
        return self.local_of(value_type, sharding), uneven

    def _lower_func(self, func, ops, names, is_main: bool) -> None:
        body = func.regions[0].blocks[0]
        self._current_func = func
        self._current_is_main = is_main
        self._ops, self._names, self._at = ops, names, -1
        for arg in body.arguments:
            self._read_arg(arg)
        shardings, global_types, per_attr = self.shardings, self.global_types, self._per_attr
        manuals = []
        for at, name in enumerate(names):
            self._at = at
            op = ops[at]
            special = name in _SPECIAL  # (one lookup for the ordinary op)
            if special and name in COLLECTIVES:
                self._collective(op, name)
                continue
            entry = LOCAL_OPS.get(name)
            if entry is not None and entry.applies is not None and not entry.applies(op):
                entry = None
            lower = entry.lower if entry is not None else None
            # Results: shardings and global types read, shrunk here unless the op's
            # lowering does it.
            attrs = op.attributes
            sharded = SHARDING_ATTR in attrs
            if special and name in _SHARDED_ELSEWHERE:
                results = op.results
                for result, sharding in zip(results, self.state.decode_results(op, results)):
                    self._record(result, sharding, result.type)
                if lower is None:
                    self.shrink_results(op)
            elif sharded:
                attr = attrs[SHARDING_ATTR]
                per_value = per_attr.get(attr)
                if per_value is None:
                    per_value = self._per_value(attr, op)
                results = op.results if len(per_value) > 1 else None
                for i, (sharding, shrunk) in enumerate(per_value):
                    if sharding is None:
                        continue
                    # (op.result: cheaper than op.results[0], and no tuple to collect)
                    result = op.result if results is None else results[i]
                    value_type = result.type
                    found = shrunk.get(value_type)
                    if found is None:
                        found = shrunk[value_type] = self._shrunk(value_type, sharding)
                    shardings[result] = sharding
                    global_types[result] = value_type
                    if found[1]:
                        self.any_uneven = True
                    if lower is None and found[0] is not None:
                        result.set_type(found[0])
            if special:
                if name == "sdy.manual_computation":
                    manuals.append(op)
                if name in _INDEXING_OPS:
                    self._shield_from_slice_folding(op)
            if entry is not None:
                if entry.padding is not None and self.any_uneven:
                    padding.mask_operands(self, op, entry.padding(op))
                # (constants and iotas change only where their result is sharded)
                if lower is not None and (sharded or name not in SOURCE_OPS):
                    if lower(self, op):
                        continue  # the lowering replaced and erased the op
            if special and name in _REGION_ARG_OPS:
                for region in op.regions:
                    for arg in region.blocks[0].arguments:
                        self._read_arg(arg)
            if sharded:
                del attrs[SHARDING_ATTR]
        for op in reversed(manuals):
            inline_region_before(op)
        # (the walk's last op: indexing body.operations walks the block to its end)
        terminator = ops[-1] if names and names[-1] == "func.return" else \
            body.operations[len(body.operations) - 1]
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [a.type for a in body.arguments], [v.type for v in terminator.operands]))
        if not is_main:
            filter_signature_attrs(func, lambda n: n.startswith("sdy."))

    def _shield_from_slice_folding(self, op: ir.Operation) -> None:
        """An optimization_barrier between `op` (gather, dynamic_slice, scatter) and a
        dynamic_slice its operand may be read from: XLA:CPU folds such pairs into one
        op that loses the inner slice's start clamp and reads out of range (the known
        issue indexed_dynamic_slices; shardpy's own halo and reshape slicing makes such
        pairs too: test/Regressions/fuzz_gather_of_local_dynamic_slice_folded.mlir).
        Region and callee arguments count as such: XLA inlines calls and loops that
        run once, and the value passed in may be a dynamic_slice."""
        value = op.operands[0]
        source = value
        while isinstance(source, ir.OpResult):
            producer = source.owner.operation
            if producer.name == "stablehlo.dynamic_slice":
                break
            if producer.name not in _FOLDED_THROUGH:
                return
            source = producer.operands[0]
        else:
            if self._current_is_main and \
                    ir.BlockArgument(source).owner.owner.operation == self._current_func:
                return  # an input of the program
        with op.location, ir.InsertionPoint(op):
            shielded = stablehlo.OptimizationBarrierOp([value]).results[0]
        self.takes_over(shielded, value)
        op.operands[0] = shielded

    # -- types ---------------------------------------------------------------------------
    def local_of(self, value_type, sharding: TensorSharding, loc=None) -> ir.Type:
        """The per-device type (uneven dims: ceil-sized shards, see shardpy.lowering.padding)."""
        key = (value_type, id(sharding))
        found = self._local_types.get(key)
        if found is None or found[0] is not sharding:
            if not isinstance(value_type, ir.RankedTensorType):
                local = value_type
            else:
                local = ir.RankedTensorType.get(
                    list(sharding.local_shape(list(value_type.shape))),
                    value_type.element_type)
            found = self._local_types[key] = (sharding, local)  # keeps the id valid
        return found[1]

    def sharding_ahead(self, value: ir.Value) -> TensorSharding | None:
        """The sharding of `value`, also where the walk has not reached its op yet."""
        sharding = self.shardings.get(value)
        return sharding if sharding is not None else self.state.of(value)

    def global_shape(self, value: ir.Value) -> tuple[int, ...] | None:
        """The global shape of a (shrunk) value: the program's, or that of the value a
        lowering's replacement takes over (takes_over)."""
        value_type = self.global_types.get(value)
        if value_type is None or not isinstance(value_type, ir.RankedTensorType):
            return None
        return tuple(value_type.shape)

    def takes_over(self, new: ir.Value, old: ir.Value) -> None:
        """`new` (made by a lowering) holds `old`'s global value: same sharding, same
        global shape."""
        self.shardings[new] = self.shardings.get(old)
        if old in self.global_types:
            self.global_types[new] = self.global_types[old]

    def shrink_results(self, op: ir.Operation) -> None:
        for result in op.results:
            sharding = self.shardings.get(result)
            if sharding is not None:
                value_type = self.global_types.get(result)
                if value_type is None:
                    value_type = result.type
                result.set_type(self.local_of(value_type, sharding))

    # -- per-device values -----------------------------------------------------------------
    def partition_id(self) -> ir.Value:
        """tensor<i32> partition id, made once at the top of the current function."""
        func = self._current_func
        key = id(func)
        if key not in self._pid:
            body = func.regions[0].blocks[0]
            first = body.operations[0]
            with ir.InsertionPoint(first), func.location:
                pid = stablehlo.PartitionIdOp().result
                self._pid[key] = stablehlo.ConvertOp(
                    ir.RankedTensorType.get([], ir.IntegerType.get_signless(32)), pid).result
        return self._pid[key]

    def device_scalar(self, values: list[int]) -> ir.Value:
        """tensor<i32> holding values[partition id] (at the current insertion point)."""
        if len(set(values)) == 1:
            return const_i32(values[0])
        i32 = ir.IntegerType.get_signless(32)
        table = stablehlo.ConstantOp(ir.DenseElementsAttr.get(
            np.array(values, dtype=np.int32))).result
        picked = stablehlo.DynamicSliceOp(table, [self.partition_id()], [1],
                                          results=[ir.RankedTensorType.get([1], i32)]).result
        return stablehlo.ReshapeOp(ir.RankedTensorType.get([], i32), picked).result

    def offsets(self, sharding: TensorSharding, local_shape) -> list[ir.Value]:
        """Where this device's shard starts, per dim."""
        per_device = [[0] * self.num_devices for _ in local_shape]
        for device in range(self.num_devices):
            if not sharding.mesh.contains_device(device):
                continue
            index = sharding.shard_index(device)
            for d, size in enumerate(local_shape):
                per_device[d][device] = index[d] * size
        return [self.device_scalar(v) for v in per_device]

    # -- collectives --------------------------------------------------------------------------
    def next_channel(self) -> ir.Attribute:
        handle = self.channel
        self.channel += 1
        return stablehlo.ChannelHandle.get(handle, 1)

    def groups(self, mesh, axes) -> ir.Attribute:
        """replica_groups of a collective over `axes` of `mesh`. A mesh of fewer devices
        than the program's: XLA wants every device in one group (of one size), so the
        devices outside the mesh (holding nothing of its values) make groups of their
        own, in order; a collective over groups that do not divide them is an error."""
        key = (mesh, tuple(axes))
        found = self._groups.get(key)
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
        return self._all_reduce_over(value, self.groups(mesh, axes), reducer)

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

    def _collective(self, op: ir.Operation, name: str) -> None:
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
                value = self._permute(value, source, target, local_out)
        if value.type != local_out:
            raise ShardpyError(f"internal: lowering {name} gave {value.type}, expected "
                               f"{local_out}", op.location)
        self._record(value, target, global_type)
        result.replace_all_uses_with(value)
        op.erase()

    def _permute(self, value: ir.Value, source: TensorSharding, target: TensorSharding,
                 local_out: ir.Type) -> ir.Value:
        """Each device of `target` gets its block from a device holding it in `source`
        (same shard shapes; the meshes may differ: device_groups.permute_rounds). A
        round of pairs is one collective_permute; a device takes the buffer of the
        round that serves it (a selection by partition id after the first round); a
        first round where every device keeps its block moves nothing."""
        rounds = permute_rounds(source, target, self.num_devices)
        out = value
        for i, pairs in enumerate(rounds):
            if i == 0 and all(s == t for s, t in pairs):
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
        first = [0] * self.num_devices
        for device in mesh.devices:
            first[device] = int(group_index(mesh, tuple(axes), device) == 0)
        flag = self.device_scalar(first)
        i1 = ir.IntegerType.get_signless(1)
        keep = stablehlo.CompareOp(flag, const_i32(1),
                                   stablehlo.ComparisonDirectionAttr.get("EQ")).result
        keep = stablehlo.BroadcastInDimOp(
            ir.RankedTensorType.get(value.type.shape, i1), keep, []).result
        zero = stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(
            value.type, zero_attr(value.type.element_type))).result
        return stablehlo.SelectOp(keep, value, zero).result

    def _all_slice(self, value, source, target, local_out, op) -> ir.Value:
        mesh = target.mesh
        per_device = [[0] * self.num_devices for _ in target.dims]
        for d, (s, t) in enumerate(zip(source.dims, target.dims)):
            axes = _suffix_after(t.axes, s.axes, mesh)
            if not axes:
                continue
            # A whole dim padded to whole shards first (uneven dims).
            value = _fit(value, d, local_out.shape[d] * prod(a.size(mesh) for a in axes),
                         not s.axes, op)
            for device in mesh.devices:
                per_device[d][device] = group_index(mesh, tuple(axes), device) * \
                    local_out.shape[d]
        offsets = [self.device_scalar(v) for v in per_device]
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


# Indexing ops XLA:CPU folds with a dynamic_slice they read (through the ops it moves a
# dynamic_slice across), dropping the slice's clamp: _shield_from_slice_folding.
_INDEXING_OPS = frozenset({"stablehlo.gather", "stablehlo.dynamic_slice",
                           "stablehlo.scatter"})
_FOLDED_THROUGH = frozenset({"stablehlo.reshape", "stablehlo.transpose",
                             "stablehlo.broadcast_in_dim", "stablehlo.convert"})

# Ops whose results' shardings are not in their sdy.sharding (ShardingState reads them).
_SHARDED_ELSEWHERE = frozenset(SINGLE_SHARDING_ATTR) | {"sdy.manual_computation"}
# Ops whose region arguments are program values (their shardings: ShardingState).
_REGION_ARG_OPS = frozenset({"stablehlo.while", "sdy.manual_computation"})
# The ops _lower_func does more for than read, shrink and lower.
_SPECIAL = frozenset(COLLECTIVES) | _SHARDED_ELSEWHERE | _INDEXING_OPS | _REGION_ARG_OPS


def _suffix_after(longer, shorter, mesh) -> list[AxisRef]:
    """The axes `longer` has after `shorter` (as a sub-axis-exact suffix)."""
    from .reshard_planner import _refine

    a, b, _, _ = _refine([list(longer)], [list(shorter)], [], [], mesh.axes)
    a, b = a[0], b[0]
    if a[:len(b)] != b:
        raise ShardpyError(f"internal: {list(shorter)} is not a prefix of {list(longer)}")
    return _merge(a[len(b):], mesh)


def _minus(axes, removed, mesh) -> list[AxisRef]:
    """The parts of `axes` not covered by `removed`, exact to sub-axes
    ("x" minus "x":(1)2 is "x":(2)2)."""
    from .reshard_planner import _refine

    key = (tuple(axes), tuple(removed), mesh)
    found = _MINUS_MEMO.get(key)
    if found is None:
        if len(_MINUS_MEMO) > 4096:
            _MINUS_MEMO.clear()
        pieces, gone, _, _ = _refine([list(axes)], [list(removed)], [], [], mesh.axes)
        found = _MINUS_MEMO[key] = tuple(_merge([p for p in pieces[0] if p not in gone[0]],
                                                mesh))
    return list(found)


_MINUS_MEMO: dict = {}  # (axes, removed, mesh) -> axes left (values: plain tuples)


def _merge(axes, mesh) -> list[AxisRef]:
    from ..sharding import axis_algebra as aa

    out: list[AxisRef] = []
    for ref in axes:
        aa.append_or_merge(out, ref, mesh.axes)
    return out


def _empty(value_type: ir.Type) -> ir.Value:
    """A new value of an empty tensor type, for a collective with nothing to exchange:
    its result must not be its operand, whose recorded sharding it would overwrite
    (seed 900904: an all_gather along an empty dim, then an all_to_all of its operand)."""
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(
        value_type, zero_attr(value_type.element_type))).result


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
_CHANNEL_OPS = frozenset({"stablehlo.all_gather", "stablehlo.all_reduce",
                          "stablehlo.reduce_scatter", "stablehlo.all_to_all",
                          "stablehlo.collective_permute", "stablehlo.collective_broadcast",
                          "stablehlo.send", "stablehlo.recv"})


def _first_free_channel(per_func) -> int:
    """`per_func`: (func, ops, their names) per function."""
    highest = 0
    for _, ops, names in per_func:
        for op, name in zip(ops, names):
            if name in _CHANNEL_OPS and "channel_handle" in op.attributes:
                highest = max(highest,
                              stablehlo.ChannelHandle(op.attributes["channel_handle"]).handle)
    return highest + 1
