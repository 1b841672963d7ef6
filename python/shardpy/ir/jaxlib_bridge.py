"""The one place shardpy touches jaxlib and jax beyond their public Python APIs.

Everything version-specific lives here, pinned to jax/jaxlib 0.10.2:
  * the MLIR context with func, stablehlo, sdy, chlo and mhlo loaded, built from
    `jaxlib.mlir` alone (importing jax costs ~1 s; tools that only transform IR
    must not pay for it);
  * registration of the native pass libraries that jaxlib ships but does not
    register by default (stablehlo, mhlo);
  * XLA's own parsers and converters (HLO sharding strings, HLO text);
  * the PjRt client: compile a module for N partitions, run it.

jax itself is imported lazily, and only by the functions that execute programs.
"""
from __future__ import annotations

import functools
import os
import sys
from typing import Sequence

from jaxlib.mlir import ir, passmanager  # noqa: F401  (re-exported for callers)
from jaxlib.mlir.dialects import chlo, func, mhlo, sdy, stablehlo  # noqa: F401
from jaxlib.mlir._mlir_libs import _jax_mlir_ext, _mlir

from . import callbacks

JAX_VERSION = "0.10.2"


def make_context() -> ir.Context:
    """A fresh MLIR context with every dialect a JAX or PyTorch/XLA module uses."""
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)  # func, arith, ... (upstream MLIR)
    context = ir.Context()
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    stablehlo.register_dialect(context)
    sdy.register_dialect(context)
    chlo.register_dialect(context)
    mhlo.register_mhlo_dialect(context)
    register_native_passes()
    register_dense_elements_caster()
    return context


@functools.cache
def register_dense_elements_caster() -> None:
    """Reading a dense constant of complex elements (`op.attributes["value"]`) raises in
    jaxlib's bindings ("Can't cast unknown element type DenseTypedElementsAttr"; through
    a NamedAttribute it aborts the process): their downcast knows integers and floats
    only. This one gives those the same classes and anything else the generic
    DenseElementsAttr. Process-wide, as the bindings' casters are."""
    with ir.Context():
        typeid = ir.Attribute.parse("dense<0> : tensor<i32>").typeid
    _mlir.register_type_caster(typeid, replace=True)(_dense_elements)


def _dense_elements(attr: ir.Attribute) -> ir.Attribute:
    element = ir.ShapedType(attr.type).element_type
    if isinstance(element, (ir.IntegerType, ir.IndexType)):
        return ir.DenseIntElementsAttr(attr)
    if isinstance(element, ir.FloatType):
        return ir.DenseFPElementsAttr(attr)
    return ir.DenseElementsAttr(attr)


@functools.cache
def register_native_passes() -> None:
    """Make stablehlo/mhlo passes (e.g. chlo-legalize-to-stablehlo) parseable.

    Shardy's `sdy-*` passes and MLIR's core passes are registered by jaxlib already.
    """
    stablehlo.register_stablehlo_passes()
    mhlo.register_mhlo_passes()


# --------------------------------------------------------------------------- XLA parsers


def hlo_sharding_from_string(text: str):
    """Parse a GSPMD sharding string (`{devices=[2,2]<=[4]}`) with XLA's own parser
    (ValueError with XLA's message, positions as columns of `text`)."""
    from jaxlib import xla_client

    try:
        return xla_client.HloSharding.from_string(text)
    except Exception as err:  # JaxRuntimeError
        raise ValueError("; ".join(f"column {col}: {message}" if col else message
                                   for _, col, message in _hlo_errors(str(err)))) from None


def _subgroup_types(kinds: Sequence[str]) -> list:
    from jaxlib import xla_client

    return [getattr(xla_client.OpSharding.Type, kind) for kind in kinds]


def gspmd_iota_tile(tile_dims: Sequence[int], reshape: Sequence[int], perm: Sequence[int],
                    subgroups: Sequence[str] = ()) -> str:
    """`{devices=[tile_dims]<=[reshape]T(perm) ...}` as XLA prints it (canonicalised);
    `subgroups` names the trailing tile dims ("MANUAL", "REPLICATED")."""
    from jaxlib import xla_client

    return str(xla_client.HloSharding.iota_tile(list(tile_dims), list(reshape), list(perm),
                                                _subgroup_types(subgroups)))


def gspmd_device_tile(devices, subgroups: Sequence[str] = ()) -> str:
    """A tiled sharding from an explicit device array (shape = tile dims)."""
    import numpy as np
    from jaxlib import xla_client

    return str(xla_client.HloSharding.subgroup_with_device_ordering(
        np.asarray(devices, dtype=np.int64), _subgroup_types(subgroups)))


def gspmd_simple(kind: str, device: int = 0) -> str:
    """`{replicated}`, `{manual}` or `{maximal device=k}`."""
    from jaxlib import xla_client

    if kind == "replicated":
        return str(xla_client.HloSharding.replicate())
    if kind == "manual":
        return str(xla_client.HloSharding.manual())
    proto = xla_client.OpSharding()
    proto.type = xla_client.OpSharding.Type.MAXIMAL
    proto.tile_assignment_devices = [device]
    return str(xla_client.HloSharding.from_proto(proto))


def gspmd_tuple(elements: Sequence[str]) -> str:
    """`{{a}, {b}}`: one sharding per element of a tuple (the results of one op)."""
    from jaxlib import xla_client

    proto = xla_client.OpSharding()
    proto.type = xla_client.OpSharding.Type.TUPLE
    proto.tuple_shardings = [xla_client.HloSharding.from_string(e).to_proto() for e in elements]
    return str(xla_client.HloSharding.from_proto(proto))


class HloTextError(ValueError):
    """XLA's HLO parser refused the text: `errors` are (line, col, message), 1-based,
    (0, 0, message) where XLA gave no position."""

    def __init__(self, errors: list[tuple[int, int, str]]):
        super().__init__("; ".join(m for _, _, m in errors))
        self.errors = errors


def hlo_text_to_stablehlo(text: str) -> bytes:
    """HLO text (what PyTorch/XLA and XLA dumps print) -> StableHLO bytecode.

    XLA parses the text into an HloModule and converts it; shardings stay GSPMD
    strings (`mhlo.sharding`). Ops are located by instruction name (or their
    metadata's op_name and source_file:source_line).
    """
    from jaxlib import xla_client

    try:
        module = xla_client.hlo.hlo_module_from_text(text)
        return xla_client._xla.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
    except Exception as err:  # JaxRuntimeError; its text lists "was parsing L:C: error: ..."
        raise HloTextError(_hlo_errors(str(err))) from None


def _hlo_errors(message: str) -> list[tuple[int, int, str]]:
    """Split XLA's parser message into located errors (the echoed source lines and
    carets are dropped: diagnostics point at the file instead)."""
    errors = []
    for line in message.splitlines():
        head, sep, rest = line.partition(": error: ")
        if sep and head.startswith("was parsing "):
            line_col = head[len("was parsing "):].split(":")
            if len(line_col) == 2 and all(part.isdigit() for part in line_col):
                errors.append((int(line_col[0]), int(line_col[1]), rest))
    if not errors:
        errors.append((0, 0, message.strip().splitlines()[0] if message.strip() else
                       "XLA could not read the HLO module"))
    return errors


# --------------------------------------------------------------------------- execution


class HostDeviceCountError(RuntimeError):
    pass


# XLA:CPU (jaxlib 0.10.2) compiles programs for at most 2048 partitions (beyond:
# "Multiprocess computations aren't implemented on the CPU backend"), and making host
# devices takes time that grows faster than their number (16,384: over a minute), so
# more are never worth asking for.
MAX_HOST_DEVICES = 2048


class BackendError(RuntimeError):
    """XLA or PjRt refused a program (compile or run); the message is XLA's."""


def request_host_devices(count: int) -> None:
    """Ask XLA's CPU client for `count` host devices. Must run before jax starts."""
    flag = f"--xla_force_host_platform_device_count={count}"
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split()
             if not f.startswith("--xla_force_host_platform_device_count")]
    started = False
    if "jax" in sys.modules:
        import jax

        started = jax._src.xla_bridge.backends_are_initialized()  # private API, pinned
        if started and len(jax.devices("cpu")) < count:
            raise HostDeviceCountError(
                f"jax already started with {len(jax.devices('cpu'))} CPU devices; "
                f"{count} were requested (set XLA_FLAGS before importing jax)")
    os.environ["XLA_FLAGS"] = " ".join(flags + [flag])
    # XLA reads XLA_FLAGS once per process, and converting HLO text makes it read them
    # early; jax's own setting reaches the CPU client whenever that is created.
    os.environ["JAX_NUM_CPU_DEVICES"] = str(count)
    if "jax" in sys.modules and not started:
        sys.modules["jax"].config.update("jax_num_cpu_devices", count)


def quiet_logs() -> None:
    """No INFO lines from PjRt/XLA on stderr (unless SHARDPY_DEBUG is set); call before
    a backend starts to silence its start-up too."""
    from jaxlib import utils as jaxlib_utils

    if not os.environ.get("SHARDPY_DEBUG"):
        jaxlib_utils.absl_set_min_log_level(1)


def get_backend(platform: str):
    """jaxlib's PjRt client for `platform` ('cpu', 'gpu', 'tpu')."""
    import jax
    from jax.extend import backend as jax_backend

    del jax  # imported for its side effect: backends registered
    quiet_logs()
    try:
        return jax_backend.get_backend(platform)
    except RuntimeError as err:
        raise RuntimeError(f"no {platform} backend available: {err}") from None


def compile_module(client, module: ir.Module, devices: Sequence, shardy: bool = True) -> object:
    """Compile `module` (global shapes, sdy shardings) for len(devices) partitions.

    Logical partition i runs on devices[i]; XLA's Shardy partitioner handles the
    sharded arguments and the manual computation around our per-device body.
    `shardy=False` uses XLA's GSPMD partitioner instead (modules with `mhlo.sharding`).
    """
    import numpy as np
    from jax.extend import backend as jax_backend
    from jaxlib import xla_client

    found = callbacks.find(module.operation)
    if found:  # XLA would call through an index naming nothing (a crash)
        raise BackendError(f"{found[0].location}: {callbacks.NOT_RUNNABLE}")
    options = jax_backend.get_compile_options(
        num_replicas=1,
        num_partitions=len(devices),
        device_assignment=np.array(devices).reshape(1, len(devices)),
    )
    options.executable_build_options.use_shardy_partitioner = shardy
    quiet = not shardy and not os.environ.get("SHARDPY_DEBUG")
    if quiet:  # XLA warns on every GSPMD compile that GSPMD is deprecated
        from jaxlib import utils as jaxlib_utils

        jaxlib_utils.absl_set_min_log_level(2)
    if _calls_lapack(module):
        _initialize_lapack()
    try:
        return client.compile_and_load(
            module, executable_devices=xla_client.DeviceList(tuple(devices)),
            compile_options=options)
    except Exception as err:  # JaxRuntimeError: XLA's own message says what it refused
        raise BackendError(f"XLA could not compile the program: {err}") from None
    finally:
        if quiet:
            jaxlib_utils.absl_set_min_log_level(1)


def _calls_lapack(module: ir.Module) -> bool:
    found = []

    def visit(op):
        if op.name == "stablehlo.custom_call" and ir.StringAttr(
                op.attributes["call_target_name"]).value.startswith("lapack_"):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return bool(found)


def _initialize_lapack() -> None:
    """jaxlib's LAPACK custom calls (lapack_*_ffi, as jnp.linalg emits on CPU) need their
    function table filled before they run (jax does it when it lowers them; a module
    read from text never went through that): without it XLA:CPU crashes."""
    try:
        from jax._src.lib import lapack
        lapack._lapack.initialize()
    except (ImportError, AttributeError):  # another jaxlib: its own way, or none needed
        pass


def _place(devices: Sequence, arrays: Sequence, stacked: bool) -> list:
    """Put host arrays on devices: row i of each stacked array on devices[i], or
    (unstacked) every array whole on every device. 64-bit arrays stay 64-bit (the
    program's types say so; jax would otherwise narrow them to 32 bits)."""
    import jax
    import numpy as np

    with jax.enable_x64(True):
        if not stacked and len(devices) == 1:
            return [jax.device_put(x, devices[0]) for x in arrays]
        mesh = jax.sharding.Mesh(np.array(devices), ("devices",))
        spec = jax.sharding.PartitionSpec("devices") if stacked else \
            jax.sharding.PartitionSpec()
        placement = jax.sharding.NamedSharding(mesh, spec)
        if jax.process_count() > 1:  # each process places the blocks of its own devices
            return [jax.make_array_from_callback(x.shape, placement, lambda i, x=x: x[i])
                    for x in arrays]
        return [jax.device_put(x, placement) for x in arrays]


def place(devices: Sequence, arrays: Sequence, stacked: bool) -> list:
    """Host arrays on devices, as `execute_placed` and `run_once` take them (see _place)."""
    return _place(devices, arrays, stacked)


def execute(executable, devices: Sequence, arrays: Sequence, stacked: bool) -> list:
    """Run once; per result a numpy array (stacked: [devices, ...] rows in device order)."""
    return execute_placed(executable, _place(devices, arrays, stacked), stacked)


def unspent(placed: Sequence, donated: Sequence[int] = ()) -> list:
    """`placed` with the inputs a run donates copied on their devices: the program may
    write its results over a donated buffer, so each run gets its own copy and
    `placed` stays valid for the next (the copy is not part of a timed run)."""
    if not donated:
        return list(placed)
    import jax

    return [jax.device_put(x, x.sharding, may_alias=False) if i in donated else x
            for i, x in enumerate(placed)]


def execute_placed(executable, placed: Sequence, stacked: bool,
                   donated: Sequence[int] = ()) -> list:
    """`execute` with inputs already on the devices (`place`); `donated`: the inputs
    the program donates (`donated_arguments`), copied first (see unspent)."""
    import numpy as np

    try:
        results = executable.execute_sharded(unspent(placed, donated))
    except Exception as err:
        raise BackendError(f"PjRt could not run the program: {err}") from None
    per_result = results.disassemble_into_single_device_arrays()
    if stacked:  # (a scalar's shards, one per device, stack into a vector; across
        # processes, the shards of this process's devices, in device order)
        per_result = [sorted(shards, key=lambda s: next(iter(s.devices())).id)
                      for shards in per_result]
        return [np.concatenate([np.asarray(s).reshape(-1 if s.ndim == 0 else s.shape)
                                for s in shards]) for shards in per_result]
    return [np.asarray(shards[0]) for shards in per_result]


def run_once(executable, placed: Sequence, donated: Sequence[int] = ()) -> float:
    """Wall time of one run with inputs already on the devices, results awaited (the
    copies of donated inputs, `unspent`, are made before the clock starts)."""
    import time

    inputs = unspent(placed, donated)
    for x in inputs:
        x.block_until_ready()
    start = time.perf_counter()
    results = executable.execute_sharded(inputs)
    for shards in results.disassemble_into_single_device_arrays():
        for shard in shards:
            shard.block_until_ready()
    return time.perf_counter() - start


def time_executions(executable, devices: Sequence, arrays: Sequence, stacked: bool,
                    repeats: int, donated: Sequence[int] = ()) -> list[float]:
    """Wall time of `repeats` runs after one warm-up (inputs resident, results awaited)."""
    if repeats <= 0:
        return []
    placed = _place(devices, arrays, stacked)
    run_once(executable, placed, donated)
    return [run_once(executable, placed, donated) for _ in range(repeats)]


# --------------------------------------------------------------------------- inspection
# What XLA made of a program: its memory plan and its optimized HLO (for benchmarks
# that compare shardpy's partitioning with XLA's own, bench/compare_xla.py).

MEMORY_FIELDS = ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                 "temp_size_in_bytes", "generated_code_size_in_bytes", "peak_memory_in_bytes")


def memory_stats(stats) -> dict[str, int]:
    """XLA's CompiledMemoryStats (per device) as a dict; `stats` is what
    `jax.stages.Compiled.memory_analysis()` returns, or a loaded executable."""
    if hasattr(stats, "get_compiled_memory_stats"):
        stats = stats.get_compiled_memory_stats()
    return {name: int(getattr(stats, name, 0) or 0) for name in MEMORY_FIELDS}


def held_bytes(memory: dict[str, int]) -> int:
    """What an executable holds at once on a device (`memory_stats`): its arguments,
    results and scratch, results written into donated arguments counted once. (XLA's
    own peak_memory_in_bytes came out below argument + temp on CPU.)"""
    return (memory["argument_size_in_bytes"] + memory["output_size_in_bytes"]
            + memory["temp_size_in_bytes"] - memory["alias_size_in_bytes"])


def loaded_executable(compiled):
    """The PjRt loaded executable inside a `jax.stages.Compiled` (what `run_once`,
    `execute_placed`, `memory_stats` and `hlo_instructions` take)."""
    return compiled.runtime_executable()


def hlo_instructions(executable, opcodes=None):
    """(opcode name, instruction text, operand texts) for every instruction of every
    computation of the executable's optimized HLO modules (only those whose opcode name,
    e.g. "kAllReduce", is in `opcodes` if given), through jaxlib's HLO module bindings:
    they expose opcodes and operands, shapes and attributes only as the text."""
    for module in executable.hlo_modules():
        for computation in module.computations():
            for instruction in computation.instructions():
                name = instruction.opcode.name
                if opcodes is not None and name not in opcodes:
                    continue
                yield (name, instruction.to_string(),
                       [operand.to_string() for operand in instruction.operands()])


def devices_for(client, count: int) -> list:
    if count == 1:  # (one of several processes: a device of its own)
        return list(client.local_devices()[:1])
    devices = client.devices()
    if len(devices) < count:
        raise RuntimeError(
            f"the mesh needs {count} devices but the {client.platform} backend has "
            f"{len(devices)}" + (" (pass --devices N for CPU host devices)"
                                 if client.platform == "cpu" else ""))
    return list(devices[:count])


# --------------------------------------------------------------------------- shapes

def has_elements(shape) -> bool:
    """Does a value of this shape hold anything (no dim of size zero)?"""
    return all(n != 0 for n in shape)


# --------------------------------------------------------------------------- jax internals
# What shardpy.jit and custom_partitioning read of JAX that has no public name.

def is_staging_tracer(leaf) -> bool:
    """A tracer of staging (jax.jit, shard_map, a loop body), not of a transformation."""
    from jax._src.interpreters.partial_eval import DynamicJaxprTracer

    return isinstance(leaf, DynamicJaxprTracer)


def lowering_compile_args(lowered) -> dict:
    """What JAX's lowering hands its compile (host callbacks, ordered effects...)."""
    return getattr(getattr(lowered, "_lowering", None), "compile_args", None) or {}


def custom_partitioning_rule(key: bytes):
    """(the partition entry point, the rule's info) of a custom_partitioning op's
    backend_config in this process's registry; None where it has none."""
    from jax._src import custom_partitioning as jax_cp

    info = jax_cp._sharding_callbacks.get(key)
    return None if info is None else (jax_cp._custom_partitioning_partition, info)


def merge_module(dst: ir.Operation, src: ir.Module, name: str) -> str:
    """Move `src`'s functions into module `dst` (renamed apart, private); the name its
    main now has."""
    from jax._src.interpreters import mlir as jax_mlir

    class Target:  # (what merge_mlir_modules reads of its destination)
        operation, body, context = dst, dst.regions[0].blocks[0], dst.context
    return jax_mlir.merge_mlir_modules(Target, name, src)


def hlo_sharding(mesh, entries: tuple, rank: int):
    """The xla_client.HloSharding of PartitionSpec(*entries) on jax Mesh `mesh` for a
    value of `rank` dims (what a custom_partitioning rule is asked with)."""
    from jax.sharding import NamedSharding, PartitionSpec

    return NamedSharding(mesh, PartitionSpec(*entries))._to_xla_hlo_sharding(rank)
