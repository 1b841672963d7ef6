"""shardpy-to-local, global -> per-device: local shapes, collectives, per-device values.

After shardpy-insert-reshards and shardpy-reshard-to-collectives every op computes on
local shards as it is, so most ops only get their types shrunk to the local shape of
their sharding. The rest:

  sdy collectives       stablehlo.all_gather / all_reduce / reduce_scatter / all_to_all /
                        collective_permute with replica groups over the collective's axes,
                        sdy.all_slice a local dynamic_slice (collectives.py)
  ops with a `lower`    their own fix-ups (local.lower of their shardpy.ops entry:
  hook                  constant and iota take per-device offsets from a table
                        indexed by partition_id; a
                        max/min reduce over sharded dims is finished by an all_reduce;
                        windowed ops on sharded dims exchange halos with
                        collective_permutes (lowering/windowed/, halo.py); ...)
  manual_computation    its body is already per-device code: inlined
  uneven dims           local shapes are ceil-sized (padded shards, shardpy.lowering.padding):
                        ops with LocalOp.padding get their operands' padding masked
                        first; a collective pads a whole dim before splitting it and
                        trims it after gathering it whole. Lowerings read global sizes
                        from `global_shape` (recorded before shrinking; a replacement
                        value inherits its original's through `takes_over`)

One walk over the program: each op's results' shardings and global types are read when
the walk reaches the op (operands come first; `num_devices` reads ahead when a lowering
asks early), then the op is lowered. What each op needs, it asks the op registry
(shardpy.ops: `local`, `collective_lowering`, `sharding_attr`, the xla_* traits, Flow).

The module is marked `shardpy.per_device`; `@main` keeps its arguments' and results'
`sdy.sharding`s (the runtime's contract), other sharding attributes are dropped.
"""
from __future__ import annotations

import math

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .. import explain
from ..ir.utils import const_i32, filter_signature_attrs, inline_region_before, public_main
from ..lowering import padding
from ..ops.entry import INSERT_RESHARDS, TO_LOCAL
from ..ops.registry import SOURCE_OPS, local_entry, ops_with
from ..sharding.model import TensorSharding
from ..sharding.sdy_codec import SHARDING_ATTR
from ..sharding.state import ShardingState
from .collectives import COLLECTIVES, CollectiveLowering, first_free_channel
from .regions import program_ops

PER_DEVICE_ATTR = "shardpy.per_device"


class LocalLowering(CollectiveLowering):
    """The pass over one module (`run`); per-op lowerings (the `local.lower` hooks of shardpy.ops entries) get it
    as `lw`: local types, per-device values, collectives (CollectiveLowering)."""

    def __init__(self, module: ir.Operation, compact: str = "auto"):
        self.module = module
        self.state = ShardingState(module)
        self.compact = compact  # CollectiveLowering.compact
        self.recorder = explain.current()  # --explain only
        # Sharded values (a value missing is replicated), read as the walk reaches them:
        # their shardings and global types (before shrinking).
        self.shardings: dict[ir.Value, TensorSharding | None] = {}
        self.global_types: dict[ir.Value, ir.Type] = {}
        self.channel = 1  # the next free channel handle (run: after the program's own)
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
        # A reduce's `dimensions` attribute -> its dims (lowering.basic.reduced_axes);
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
        self.channel = first_free_channel(per_func)
        self._largest_mesh = max(self._largest_mesh, self._largest_result_mesh(funcs))
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

    def _largest_result_mesh(self, funcs) -> int:
        """The largest mesh a function result is returned on: a result on a mesh no
        value inside is sharded on (values unannotated or on a smaller mesh) still
        needs every device of it. (Before: a result replicated on 4 devices, computed
        from values on a 2-device mesh and unannotated ones, made a 2-partition
        program whose other 2 devices returned garbage.)"""
        codec = self.state.codec
        return max([1] + [s.mesh.size for f in funcs for s in codec.func_result_shardings(f)
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
                self.lower_collective(op, name)
                continue
            entry = local_entry(op, name)
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
                    try:
                        result = op.result if results is None else results[i]
                    except ValueError:  # no result: JAX places a callback's call so
                        break
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
                if name in _INLINED_HERE:
                    manuals.append(op)
                if name in _INDEXING_OPS:
                    self._shield_from_slice_folding(op)
            if entry is not None:
                if entry.padding is not None and self.any_uneven:
                    padding.mask_operands(self, op, entry.padding(op))
                # (constants and iotas change only where their result is sharded)
                if lower is not None and (sharded or name not in SOURCE_OPS):
                    if self.recorder is not None:  # --explain: collectives it makes
                        op.location = self.recorder.tag(op.location, explain.lowering_reason(
                            self.recorder, op, [self.shardings.get(v) for v in op.operands],
                            [self.shardings.get(r) for r in op.results]))
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
        mesh = sharding.mesh
        if mesh.is_empty or mesh.is_maximal:
            return [const_i32(0) for _ in local_shape]
        return [self.shard_scalar(mesh, dim.axes, [k * size for k in range(
            math.prod(a.size(mesh) for a in dim.axes))])
            for dim, size in zip(sharding.dims, local_shape)]


# Indexing ops XLA:CPU folds with a dynamic_slice they read (through the ops it moves a
# dynamic_slice across), dropping the slice's clamp: _shield_from_slice_folding.
_INDEXING_OPS = ops_with(lambda e: e.xla_folds_dynamic_slice)
_FOLDED_THROUGH = ops_with(lambda e: e.xla_moves_dynamic_slice)

# Ops whose results' shardings are not in their sdy.sharding (ShardingState reads them).
_SHARDED_ELSEWHERE = ops_with(lambda e: e.sharding_attr is not None and not e.collective)
# Ops whose region arguments are program values (their shardings: ShardingState): the
# region ops that reach this pass (named computations are inlined before).
_REGION_ARG_OPS = ops_with(lambda e: e.flow is not None and e.flow.operands_to_args
                           and e.flow.inlined_by != INSERT_RESHARDS)
# Region ops whose bodies this pass inlines (manual computations: already per-device).
_INLINED_HERE = ops_with(lambda e: e.flow is not None and e.flow.inlined_by == TO_LOCAL)
# The ops _lower_func does more for than read, shrink and lower.
_SPECIAL = (COLLECTIVES | _SHARDED_ELSEWHERE | _INDEXING_OPS | _REGION_ARG_OPS
            | _INLINED_HERE)
