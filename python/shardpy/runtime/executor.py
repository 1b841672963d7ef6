"""Run programs through jaxlib's PjRt client: the per-device program on the mesh, and the
global program on one device as the reference.

A per-device module is the partitioner's output (or hand-written): `@main` takes and
returns per-device (local) tensors, its argument/result `sdy.sharding`s say how the
global arrays are laid out (unreduced axes: partial values, summed on assembly), and
its body talks to other devices only through stablehlo collectives whose replica
groups name logical devices (partition ids).

To run it, the module is wrapped so XLA executes our body, untouched, once per device:

    sdy.mesh @shardpy_devices = <["devices"=N]>
    func.func @main(%a: tensor<N*L0 x L1...> {sdy.sharding = <@shardpy_devices, [{"devices"}, ...]>}) {
      %r = sdy.manual_computation(%a) ... manual_axes={"devices"} (%l: tensor<L0 x L1...>) {
        %y = func.call @shardpy_device_main(%l)   // %l: device i's local array
        sdy.return %y
      }
      return %r
    }

The local arrays are stacked along their first dim (scalars as tensor<N>, reshaped to
and from tensor<1> in the region), so the body gets them without a reshape: XLA:CPU
(jaxlib 0.10.2) mis-fuses an in-place dynamic_update_slice whose update is a slice of
its own operand when that operand is a bitcast of a tensor<1 x L...> argument
(test/Regressions/fuzz_dynamic_update_slice_of_own_slice_gathered.mlir).

Block i of every stacked array belongs to logical device i (partition id i). The host
splits global inputs into rows with the model's `device_slices` and assembles results
the same way, so the layout logic lives in one place (`sharding/model.py`) and is checked on
every run: replicas that must agree are compared.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from math import prod
from typing import Sequence

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import func, sdy, stablehlo

from ..ir import jaxlib_bridge
from . import distributed
from .blocks import (RunResult, assemble_global, from_blocks,  # noqa: F401 (re-exported)
                     split_global, to_blocks)
from .reference import pad_boundary, prepare_xla_reference
from .arrays import (RandomInputs, TensorType, check_host_memory, host_allocation,
                     tensor_type)
from ..ir.diagnostics import ShardpyError
from ..ir.layout import PARTITIONS_ATTR, num_partitions, set_num_partitions
from ..ir.utils import collect_ops, filter_signature_attrs, public_main, zeros
from ..ir.xla_cpu import prepare_for_xla_cpu
from ..sharding.sdy_codec import ShardingCodec, encode_axis
from ..sharding.model import AxisRef, TensorSharding

PER_DEVICE_ATTR = "shardpy.per_device"
DEVICE_MAIN = "shardpy_device_main"
DEVICES_MESH = "shardpy_devices"
DEVICES_AXIS = "devices"


@dataclass(frozen=True)
class BoundaryValue:
    """One argument or result of `@main`."""

    name: str  # arg0, out0, ...
    type: TensorType
    sharding: TensorSharding | None


@dataclass(frozen=True)
class Signature:
    args: tuple[BoundaryValue, ...]
    results: tuple[BoundaryValue, ...]


def entry_function(module: ir.Operation):
    main = public_main(module)
    if main is None:
        raise ShardpyError("the module has no @main (or single public) function to run",
                           module.location)
    return main


def signature(module: ir.Operation, tokens: bool = False) -> Signature:
    """Types and shardings of `@main`'s arguments and results. `tokens`: leave out
    `!stablehlo.token`s (shardpy.jit threads JAX's ordered effects through them) instead
    of refusing them."""
    main = entry_function(module)
    codec = ShardingCodec.for_module(module)
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    arg_shardings = codec.func_arg_shardings(main)
    res_shardings = codec.func_result_shardings(main)
    kept = (lambda t: not (tokens and stablehlo.TokenType.isinstance(t)))
    args = tuple(BoundaryValue(f"arg{i}", tensor_type(t, f"argument {i}", main.location), s)
                 for i, (t, s) in enumerate(zip(ftype.inputs, arg_shardings)) if kept(t))
    results = tuple(BoundaryValue(f"out{i}", tensor_type(t, f"result {i}", main.location), s)
                    for i, (t, s) in enumerate(zip(ftype.results, res_shardings)) if kept(t))
    return Signature(args, results)


# Argument attributes by which a program gives its input's buffer to XLA to reuse.
DONOR_ATTRS = ("jax.buffer_donor", "tf.aliasing_output")


def donated_arguments(module: ir.Operation) -> tuple[int, ...]:
    """The `@main` arguments the program donates (`jax.buffer_donor`, or aliased to a
    result by `tf.aliasing_output`): a run consumes them (see jaxlib_bridge.unspent)."""
    main = entry_function(module)
    if "arg_attrs" not in main.attributes:
        return ()
    return tuple(i for i, attrs in enumerate(ir.ArrayAttr(main.attributes["arg_attrs"]))
                 if any(name in ir.DictAttr(attrs) for name in DONOR_ATTRS))


def is_per_device(module: ir.Operation) -> bool:
    return PER_DEVICE_ATTR in module.attributes


# --------------------------------------------------------------------------- layouts


def device_count(module: ir.Operation, sig: Signature) -> int:
    """Devices the program needs: every mesh's devices, at least mhlo.num_partitions."""
    count = num_partitions(module) or 1
    for value in sig.args + sig.results:
        if value.sharding is not None and not value.sharding.mesh.is_empty:
            count = max(count, max(value.sharding.mesh.devices) + 1)
    return count


def local_type(value: BoundaryValue) -> tuple[int, ...]:
    shape = value.type.shape
    return value.sharding.local_shape(shape) if value.sharding else shape


# --------------------------------------------------------------------------- wrapping


def _stacked(shape: Sequence[int], dtype_type: ir.Type, n: int) -> ir.RankedTensorType:
    """n local arrays of `shape` stacked along their first dim (scalars: tensor<n>)."""
    if not shape:
        return ir.RankedTensorType.get([n], dtype_type)
    return ir.RankedTensorType.get([n * shape[0], *shape[1:]], dtype_type)


def wrap_per_device(module: ir.Operation, num_devices: int) -> ir.Module:
    """A new module whose @main runs `module`'s @main on every device (see top)."""
    wrapped = strip_to_body(module)
    set_num_partitions(wrapped.operation, num_devices)
    with module.context, module.location:
        wrapped.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(
            ir.IntegerType.get_signless(32), 1)
        device_main = entry_function(wrapped.operation)
        donated = donated_arguments(wrapped.operation)
        old_name = ir.StringAttr(device_main.attributes["sym_name"]).value
        ir.SymbolTable.replace_all_symbol_uses(old_name, DEVICE_MAIN, wrapped.operation)
        ir.SymbolTable.set_symbol_name(device_main, DEVICE_MAIN)
        device_main.attributes["sym_visibility"] = ir.StringAttr.get("private")
        _add_manual_main(wrapped, device_main, num_devices, donated)
    return wrapped


def _strip_sdy(module: ir.Operation) -> None:
    for op in collect_ops(module):
        if op.name.startswith("sdy."):
            raise ShardpyError(
                f"the per-device module still contains '{op.name}': partitioning did not "
                f"finish (per-device code talks through stablehlo collectives only)",
                op.location)
        for name in list(op.attributes):
            if name.startswith("sdy."):
                del op.attributes[name]
        if op.name == "func.func":
            filter_signature_attrs(op, lambda n: n.startswith("sdy.") or n == "mhlo.sharding")


def _add_manual_main(wrapped: ir.Module, device_main, n: int, donated=()) -> None:
    ftype = ir.FunctionType(ir.TypeAttr(device_main.attributes["function_type"]).value)
    local_in = [ir.RankedTensorType(t) for t in ftype.inputs]
    local_out = [ir.RankedTensorType(t) for t in ftype.results]
    stacked_in = [_stacked(t.shape, t.element_type, n) for t in local_in]
    stacked_out = [_stacked(t.shape, t.element_type, n) for t in local_out]
    # Values without elements stay out of the manual region (made as constants where
    # they are used): XLA folds a zero-element argument of the region's body into a
    # constant and then rejects a body call that none of its region arguments reach.
    crossing_in = [i for i, t in enumerate(local_in) if jaxlib_bridge.has_elements(t.shape)]
    crossing_out = [i for i, t in enumerate(local_out) if jaxlib_bridge.has_elements(t.shape)]

    body = wrapped.body
    first = body.operations[0] if len(body.operations) else None
    ip = ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(body)
    sdy.MeshOp(DEVICES_MESH, sdy.MeshAttr.get([sdy.MeshAxisAttr.get(DEVICES_AXIS, n)]), ip=ip)

    def by_device(rank: int) -> ir.Attribute:
        dims = [sdy.DimensionShardingAttr.get([encode_axis(AxisRef(DEVICES_AXIS))], True)]
        dims += [sdy.DimensionShardingAttr.get([], True) for _ in range(max(rank - 1, 0))]
        return sdy.TensorShardingAttr.get(DEVICES_MESH, dims)

    main = func.FuncOp("main", ir.FunctionType.get(stacked_in, stacked_out),
                       ip=ir.InsertionPoint(body))
    # A donated argument stays donated: its stacked rows may hold a result (as the
    # program asked; a benchmark then measures the program the user has).
    main.attributes["arg_attrs"] = ir.ArrayAttr.get(
        [ir.DictAttr.get({"sdy.sharding": by_device(t.rank)} | (
            {"jax.buffer_donor": ir.BoolAttr.get(True)} if i in donated else {}))
         for i, t in enumerate(local_in)])
    main.attributes["res_attrs"] = ir.ArrayAttr.get(
        [ir.DictAttr.get({"sdy.sharding": by_device(t.rank)}) for t in local_out])
    entry = main.add_entry_block()
    with ir.InsertionPoint(entry):
        returned = [_empty(t) for t in stacked_out]
        if crossing_out:
            manual = sdy.ManualComputationOp(
                [stacked_out[i] for i in crossing_out],
                [entry.arguments[i] for i in crossing_in],
                sdy.TensorShardingPerValueAttr.get(
                    [by_device(local_in[i].rank) for i in crossing_in]),
                sdy.TensorShardingPerValueAttr.get(
                    [by_device(local_out[i].rank) for i in crossing_out]),
                sdy.ManualAxesAttr.get([ir.StringAttr.get(DEVICES_AXIS)]))
            # A row of each stacked array: the local type itself, or tensor<1>.
            block = manual.regions[0].blocks.append(
                *[_stacked(local_in[i].shape, local_in[i].element_type, 1)
                  for i in crossing_in])
            with ir.InsertionPoint(block):
                locals_ = [_empty(t) for t in local_in]
                for i, a in zip(crossing_in, block.arguments):
                    t = local_in[i]
                    locals_[i] = a if t == a.type else stablehlo.ReshapeOp(t, a).result
                call = func.CallOp(local_out, ir.FlatSymbolRefAttr.get(DEVICE_MAIN),
                                   locals_)
                rows = []
                for i in crossing_out:
                    row = _stacked(local_out[i].shape, local_out[i].element_type, 1)
                    r = call.results[i]
                    rows.append(r if row == r.type else stablehlo.ReshapeOp(row, r).result)
                sdy.ReturnOp(rows)
            for i, r in zip(crossing_out, manual.results):
                returned[i] = r
        func.ReturnOp(returned)


def _empty(value_type: ir.RankedTensorType) -> ir.Value | None:
    """A constant for a type without elements (None for other types)."""
    if jaxlib_bridge.has_elements(value_type.shape):
        return None
    return zeros(value_type)


# --------------------------------------------------------------------------- execution


class Executor:
    """A PjRt client and the devices it lends us."""

    def __init__(self, platform: str = "cpu"):
        self.platform = platform
        try:
            self.client = jaxlib_bridge.get_backend(platform)
        except RuntimeError as err:  # no such backend on this machine
            raise ShardpyError(str(err)) from None

    def devices(self, count: int) -> list:
        try:
            return jaxlib_bridge.devices_for(self.client, count)
        except RuntimeError as err:  # too few devices: the message says how many
            raise ShardpyError(str(err)) from None

    def run_per_device(self, module: ir.Operation, global_sig: Signature,
                       inputs: Sequence[np.ndarray], repeats: int = 0) -> RunResult:
        """Run a per-device module; `global_sig` gives the global types of @main."""
        program = self.compile_per_device(module, global_sig, inputs)
        result = program.run()
        result.run_seconds = program.time(repeats)
        return result

    def compile_per_device(self, module: ir.Operation, global_sig: Signature,
                           inputs: Sequence[np.ndarray]) -> "PerDeviceProgram":
        """Compile a per-device module for its devices and put `inputs` (global arrays)
        on them; the result runs, times and describes itself (see PerDeviceProgram)."""
        local_sig = signature(module)
        num_devices = device_count(module, local_sig)
        _check_local_types(local_sig, global_sig)
        # Host rows hold every device's block: replicated values num_devices times.
        for lv, gv in zip(local_sig.args + local_sig.results,
                          global_sig.args + global_sig.results):
            check_host_memory(lv.name, gv.type, _rows_bytes(lv, num_devices),
                              f"its blocks on {num_devices} devices")
        # The per-device module's shardings define the layout its @main expects.
        devices = self.devices(num_devices)
        rows, _ = _host_rows(local_sig, global_sig, inputs, devices)
        if num_devices == 1:
            # XLA skips SPMD partitioning for one partition, so no manual region: run
            # the body itself on the single device.
            wrapped, arrays, stacked = strip_to_body(module), [r[0] for r in rows], False
        else:
            wrapped, stacked = wrap_per_device(module, num_devices), True
            arrays = [to_blocks(r) for r in rows]
        if self.platform == "cpu":
            prepare_for_xla_cpu(wrapped.operation)  # (ir/xla_cpu.py)
        try:
            start = time.perf_counter()
            executable = jaxlib_bridge.compile_module(self.client, wrapped, devices)
            compiled = time.perf_counter() - start
            placed = jaxlib_bridge.place(devices, arrays, stacked)
        except jaxlib_bridge.BackendError as err:
            raise ShardpyError(str(err)) from None
        return PerDeviceProgram(executable, placed, stacked, local_sig,
                                global_sig, compiled, num_devices,
                                donated_arguments(wrapped.operation))

    def run_global(self, module: ir.Operation, inputs: Sequence[np.ndarray],
                   repeats: int = 0) -> RunResult:
        """Run a module without shardings on one device (the reference)."""
        return self._compile_and_run(_global_copy(module), 1, list(inputs), False, repeats)

    def run_global_by_xla(self, module: ir.Operation, inputs: Sequence[np.ndarray],
                          repeats: int = 0, num_devices: int = 1) -> RunResult:
        """Run a global module through XLA's own SPMD partitioner, arguments and results
        replicated: the reference for programs with per-device code (manual
        computations), which have no single-device meaning. Modules with sdy meshes go
        through Shardy; GSPMD ones (mhlo.sharding, no meshes) through XLA's GSPMD
        partitioner, as PyTorch/XLA and pre-Shardy JAX ran them."""
        copy = _global_copy(module)
        num_devices = max(num_devices, device_count(copy.operation, signature(copy.operation)))
        with module.context:
            gspmd = prepare_xla_reference(copy.operation, entry_function(copy.operation))
        return self._compile_and_run(copy, num_devices, list(inputs), False, repeats,
                                     shardy=not gspmd)

    def run_partitioned_by_xla(self, module: ir.Operation, partitioned: ir.Operation,
                               inputs: Sequence[np.ndarray], num_devices: int) -> RunResult:
        """XLA's own partitioner (Shardy) on the global `module` (changed: give a copy),
        on the devices of shardpy's per-device program `partitioned`, its arguments and
        results laid out as that program lays them out (unreduced results summed,
        uneven ones padded at XLA's boundary): shardpy-run's --check-against xla, and
        the fuzzer's yardstick for bf16 partial sums. Raises ShardpyError where XLA
        refuses the program."""
        import dataclasses

        from ..gspmd.import_gspmd import import_module
        from ..ir.utils import drop_data_flow_edges

        with module.context, module.location:
            import_module(module)  # (GSPMD input: XLA's Shardy path takes sdy meshes)
            drop_data_flow_edges(module)  # (Shardy's import in XLA makes its own)

        def laid_out(g, lv):
            sharding = lv.sharding
            if sharding is not None and sharding.unreduced:
                sharding = dataclasses.replace(sharding, unreduced=())
            return BoundaryValue(g.name, g.type, sharding)

        given, local = signature(module), signature(partitioned)
        sig = Signature(tuple(map(laid_out, given.args, local.args)),
                        tuple(map(laid_out, given.results, local.results)))
        return self.compile_partitioned_by_xla(module, sig, inputs, num_devices,
                                               pad_uneven=True).run()

    def compile_partitioned_by_xla(self, module: ir.Operation, global_sig: Signature,
                                   inputs: Sequence[np.ndarray], num_devices: int,
                                   pad_uneven: bool = False) -> "PerDeviceProgram":
        """The global module partitioned by XLA's own partitioner (Shardy) instead of
        shardpy's, with the same argument and result shardings (unannotated ones
        replicated, as shardpy makes them), compiled for `num_devices` and with
        `inputs` on the devices: the same calling convention as compile_per_device's
        program, so the two run, time and describe themselves alike.

        XLA keeps only the part of an axis that divides its dim at the boundary.
        `pad_uneven` (for a reference, where the layout must be shardpy's): arguments
        and results whose shards are uneven cross it padded to a multiple of their
        shards (pad_boundary), which puts the same blocks on the same devices."""
        codec = ShardingCodec.for_module(module)
        meshes = [(name, m) for name, m in codec.meshes.items() if not m.is_maximal]
        if not meshes:
            raise ShardpyError("comparing with XLA's partitioner takes a module with sdy "
                               "meshes (GSPMD input: run it through shardpy-import first)",
                               module.location)
        mesh_name, mesh = meshes[0]
        boundary = []
        for value in global_sig.args + global_sig.results:
            sharding = value.sharding or TensorSharding.replicated_on(
                mesh, len(value.type.shape), mesh_name)
            if sharding.unreduced:
                raise ShardpyError(f"{value.name} is unreduced on {list(sharding.unreduced)}:"
                                   " XLA's partitioner is compared on whole values only",
                                   module.location)
            boundary.append(sharding)
        copy = _global_copy(module)
        if pad_uneven:
            pad_boundary(copy, global_sig, boundary)
        set_num_partitions(copy.operation, num_devices)
        with module.context:
            main = entry_function(copy.operation)
            count = len(global_sig.args)
            for key, shardings in (("arg_attrs", boundary[:count]),
                                   ("res_attrs", boundary[count:])):
                old = (list(ir.ArrayAttr(main.attributes[key])) if key in main.attributes
                       else [ir.DictAttr.get({}) for _ in shardings])
                new = []
                for attrs, sharding in zip(old, shardings):
                    entries = {a.name: a.attr for a in ir.DictAttr(attrs)}
                    entries["sdy.sharding"] = codec.encode(sharding)
                    new.append(ir.DictAttr.get(entries))
                main.attributes[key] = ir.ArrayAttr.get(new)
        local = [BoundaryValue(v.name, v.type.with_shape(s.local_shape(v.type.shape)), s)
                 for v, s in zip(global_sig.args + global_sig.results, boundary)]
        local_sig = Signature(tuple(local[:count]), tuple(local[count:]))
        devices = self.devices(num_devices)
        rows, mine = _host_rows(local_sig, global_sig, inputs, devices)
        try:
            start = time.perf_counter()
            executable = jaxlib_bridge.compile_module(self.client, copy, devices)
            compiled = time.perf_counter() - start
            _check_boundary_kept(executable, local_sig)
            # Each device's block stacked, as the per-device program takes them; a
            # scalar (whole everywhere) as it is on every device (the value of one of
            # this process's devices: a scalar's row is the scalar).
            first = mine[0] if mine else 0
            placed = [jaxlib_bridge.place(devices, [r[first]], False)[0]
                      if not lv.type.shape
                      else jaxlib_bridge.place(devices, [to_blocks(r)], True)[0]
                      for r, lv in zip(rows, local_sig.args)]
        except jaxlib_bridge.BackendError as err:
            raise ShardpyError(str(err)) from None
        return PerDeviceProgram(executable, placed, True, local_sig, global_sig, compiled,
                                num_devices, donated_arguments(copy.operation))

    def _compile_and_run(self, module: ir.Module, num_devices: int, inputs: list,
                         stacked: bool, repeats: int, shardy: bool = True) -> RunResult:
        devices = self.devices(num_devices)
        try:
            start = time.perf_counter()
            executable = jaxlib_bridge.compile_module(self.client, module, devices, shardy)
            compiled = time.perf_counter() - start
            outputs = jaxlib_bridge.execute(executable, devices, inputs, stacked)
            times = jaxlib_bridge.time_executions(executable, devices, inputs, stacked, repeats,
                                                  donated_arguments(module.operation))
        except jaxlib_bridge.BackendError as err:
            raise ShardpyError(str(err)) from None
        return RunResult(outputs, [0.0] * len(outputs), compiled, times)


def _host_rows(local_sig: Signature, global_sig: Signature, inputs, devices: Sequence
               ) -> tuple[list[np.ndarray], list[int] | None]:
    """Per argument, the host rows ([num_devices, *local shape], split_global) of
    `inputs` (global arrays, or RandomInputs not yet drawn) laid out as `local_sig`
    says, and the logical devices this process fills: all of them (None) in one
    process; of several, only its own, drawing or reading only their blocks."""
    num_devices = len(devices)
    mine = distributed.local_devices(devices) if distributed.is_multi_process() else None
    if isinstance(inputs, RandomInputs):  # drawn now: only the blocks placed here
        inputs = inputs.blocks([_blocks_wanted(lv.sharding, gv.type.shape, num_devices, mine)
                                for lv, gv in zip(local_sig.args, global_sig.args)])
    rows = []
    for x, lv, gv in zip(inputs, local_sig.args, global_sig.args):
        with host_allocation(lv.name, gv.type, _rows_bytes(lv, num_devices),
                             f"its blocks on {num_devices} devices"):
            rows.append(split_global(x, lv.sharding, lv.type.shape, num_devices, mine))
    return rows, mine


def _blocks_wanted(sharding: TensorSharding | None, shape, num_devices: int, devices=None):
    """The slices of a global array that `devices` (default: all) hold."""
    out = []
    for device in range(num_devices) if devices is None else devices:
        slices = (tuple(slice(0, n) for n in shape) if sharding is None
                  else sharding.device_slices(shape, device))
        if slices is not None:
            out.append(slices)
    return out


@dataclass
class PerDeviceProgram:
    """A per-device module compiled by PjRt with its inputs on the devices.

    `run()` runs it once and assembles the global outputs; `run_once()` times one run
    (inputs resident, results awaited); `memory()` is XLA's per-device memory plan and
    `hlo_instructions()` its optimized HLO, for comparing with other partitioners."""

    executable: object
    placed: list
    stacked: bool  # results come back stacked by device (see to_blocks)
    local_sig: Signature
    global_sig: Signature
    compile_seconds: float
    num_devices: int = 1
    donated: tuple[int, ...] = ()  # inputs a run consumes: each run gets copies

    def run(self) -> RunResult:
        try:
            outputs = jaxlib_bridge.execute_placed(self.executable, self.placed, self.stacked,
                                                   self.donated)
        except jaxlib_bridge.BackendError as err:
            raise ShardpyError(str(err)) from None
        if not self.stacked:
            outputs = [o[None] for o in outputs]
        elif distributed.is_multi_process():
            return distributed.assemble_local(outputs, self.local_sig, self.global_sig,
                                              self.num_devices, self.compile_seconds)
        else:
            outputs = [from_blocks(o, lv.type.shape, self.num_devices)
                       for o, lv in zip(outputs, self.local_sig.results)]
        assembled = [assemble_global(r, lv.sharding, gv.type.shape) for r, lv, gv in
                     zip(outputs, self.local_sig.results, self.global_sig.results)]
        return RunResult([a.array for a in assembled],
                         [a.replica_divergence for a in assembled], self.compile_seconds)

    def run_once(self) -> float:
        return jaxlib_bridge.run_once(self.executable, self.placed, self.donated)

    def time(self, repeats: int) -> list[float]:
        """Wall time of `repeats` runs after one warm-up."""
        if repeats <= 0:
            return []
        self.run_once()
        return [self.run_once() for _ in range(repeats)]

    def memory(self) -> dict[str, int]:
        return jaxlib_bridge.memory_stats(self.executable)

    def hlo_instructions(self, opcodes=None):
        return jaxlib_bridge.hlo_instructions(self.executable, opcodes)


def _check_boundary_kept(executable, local_sig: Signature) -> None:
    """XLA's partitioner may lay an argument or result out otherwise than annotated (a dim
    an axis does not divide: Shardy in XLA keeps only the part of the axis that does);
    the two programs then differ at their boundary and are not compared."""
    from jaxlib import xla_client

    from ..gspmd.codec import export_gspmd

    found = ([xla_client.HloSharding.from_proto(s)
              for s in executable.get_parameter_shardings()]
             + [xla_client.HloSharding.from_proto(s)
                for s in executable.get_output_shardings()])
    for value, xla in zip(local_sig.args + local_sig.results, found):
        wanted = jaxlib_bridge.hlo_sharding_from_string(export_gspmd(value.sharding))
        if wanted.is_replicated() and xla.is_replicated():
            continue
        if wanted != xla:
            raise ShardpyError(
                f"XLA's partitioner laid {value.name} out as {xla}, not as annotated "
                f"({value.sharding}, {wanted}): the two programs differ at their boundary "
                f"and are not compared (an axis that does not divide its dim is cut to "
                f"the part that does)")


def _copy(module: ir.Operation) -> ir.Module:
    with module.context, module.location:
        copy = ir.Module.create()
        for op in module.regions[0].blocks[0].operations:
            op.operation.clone(ip=ir.InsertionPoint(copy.body))
        for name in list(module.attributes):
            copy.operation.attributes[name] = module.attributes[name]
    return copy


def _global_copy(module: ir.Operation) -> ir.Module:
    """A copy of a global module whose entry function is `@main`: XLA compiles only
    that one ("MLIR module must have a main function"), and shardpy also runs a
    module's single public function of another name."""
    copy = _copy(module)
    entry = entry_function(copy.operation)
    name = ir.StringAttr(entry.attributes["sym_name"]).value
    if name != "main":
        with module.context:
            ir.SymbolTable.replace_all_symbol_uses(name, "main", copy.operation)
            ir.SymbolTable.set_symbol_name(entry, "main")
    return copy


def strip_to_body(module: ir.Operation) -> ir.Module:
    """The per-device module without meshes or sdy attributes (for one device)."""
    copy = _copy(module)
    with module.context:
        for op in list(copy.body.operations):
            if op.operation.name == "sdy.mesh":
                op.operation.erase()
        for name in ("sym_name", PER_DEVICE_ATTR, PARTITIONS_ATTR):
            if name in copy.operation.attributes:
                del copy.operation.attributes[name]
        _strip_sdy(copy.operation)
    return copy


def _rows_bytes(value: BoundaryValue, num_devices: int) -> int:
    return num_devices * prod(value.type.shape) * value.type.dtype.itemsize


def _check_local_types(local_sig: Signature, global_sig: Signature) -> None:
    if len(local_sig.args) != len(global_sig.args) or \
            len(local_sig.results) != len(global_sig.results):
        raise ShardpyError(
            f"the per-device @main has {len(local_sig.args)} arguments and "
            f"{len(local_sig.results)} results; the global program has "
            f"{len(global_sig.args)} and {len(global_sig.results)}")
    for lv, gv in zip(local_sig.args + local_sig.results, global_sig.args + global_sig.results):
        expected = local_type(BoundaryValue(gv.name, gv.type, lv.sharding))
        if lv.type.shape != expected or lv.type.dtype != gv.type.dtype:
            where = f"for sharding {lv.sharding}" if lv.sharding else "(no sharding: replicated)"
            raise ShardpyError(
                f"{lv.name}: the per-device type is {lv.type} but global "
                f"{gv.type} {where} gives local shape {list(expected)}")


def global_signature_of_per_device(module: ir.Operation,
                                   arg_shapes: Sequence[tuple[int, ...]] | None = None
                                   ) -> Signature:
    """Global types of a per-device module that came without its global program.

    Argument shapes come from the given inputs when known (uneven dims need them),
    otherwise local shape x shards; results always local x shards.
    """
    local = signature(module)

    def globalize(value: BoundaryValue, shape=None) -> BoundaryValue:
        if shape is None:
            shards = [value.sharding.dim_shards(i) if value.sharding else 1
                      for i in range(len(value.type.shape))]
            shape = tuple(n * s for n, s in zip(value.type.shape, shards))
        return BoundaryValue(value.name, value.type.with_shape(shape), value.sharding)

    shapes = arg_shapes or [None] * len(local.args)
    return Signature(tuple(globalize(v, s) for v, s in zip(local.args, shapes)),
                     tuple(globalize(v) for v in local.results))
