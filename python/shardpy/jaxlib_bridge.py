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
from jaxlib.mlir._mlir_libs import _jax_mlir_ext

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
    return context


@functools.cache
def register_native_passes() -> None:
    """Make stablehlo/mhlo passes (e.g. chlo-legalize-to-stablehlo) parseable.

    Shardy's `sdy-*` passes and MLIR's core passes are registered by jaxlib already.
    """
    stablehlo.register_stablehlo_passes()
    mhlo.register_mhlo_passes()


# --------------------------------------------------------------------------- XLA parsers


def hlo_sharding_from_string(text: str):
    """Parse a GSPMD sharding string (`{devices=[2,2]<=[4]}`) with XLA's own parser."""
    from jaxlib import xla_client

    return xla_client.HloSharding.from_string(text)


# --------------------------------------------------------------------------- execution


class HostDeviceCountError(RuntimeError):
    pass


class BackendError(RuntimeError):
    """XLA or PjRt refused a program (compile or run); the message is XLA's."""


def request_host_devices(count: int) -> None:
    """Ask XLA's CPU client for `count` host devices. Must run before jax starts."""
    flag = f"--xla_force_host_platform_device_count={count}"
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split()
             if not f.startswith("--xla_force_host_platform_device_count")]
    if "jax" in sys.modules:
        import jax

        started = jax._src.xla_bridge.backends_are_initialized()  # private API, pinned
        if started and len(jax.devices("cpu")) < count:
            raise HostDeviceCountError(
                f"jax already started with {len(jax.devices('cpu'))} CPU devices; "
                f"{count} were requested (set XLA_FLAGS before importing jax)")
    os.environ["XLA_FLAGS"] = " ".join(flags + [flag])


def get_backend(platform: str):
    """jaxlib's PjRt client for `platform` ('cpu', 'gpu', 'tpu')."""
    import jax
    from jaxlib import utils as jaxlib_utils
    from jax.extend import backend as jax_backend

    del jax  # imported for its side effect: backends registered
    if not os.environ.get("SHARDPY_DEBUG"):
        jaxlib_utils.absl_set_min_log_level(1)  # no INFO lines from PjRt on stderr
    try:
        return jax_backend.get_backend(platform)
    except RuntimeError as err:
        raise RuntimeError(f"no {platform} backend available: {err}") from None


def compile_module(client, module: ir.Module, devices: Sequence) -> object:
    """Compile `module` (global shapes, sdy shardings) for len(devices) partitions.

    Logical partition i runs on devices[i]; XLA's Shardy partitioner handles the
    sharded arguments and the manual computation around our per-device body.
    """
    import numpy as np
    from jax.extend import backend as jax_backend
    from jaxlib import xla_client

    options = jax_backend.get_compile_options(
        num_replicas=1,
        num_partitions=len(devices),
        device_assignment=np.array(devices).reshape(1, len(devices)),
    )
    options.executable_build_options.use_shardy_partitioner = True
    if _calls_lapack(module):
        _initialize_lapack()
    try:
        return client.compile_and_load(
            module, executable_devices=xla_client.DeviceList(tuple(devices)),
            compile_options=options)
    except Exception as err:  # JaxRuntimeError: XLA's own message says what it refused
        raise BackendError(f"XLA could not compile the program: {err}") from None


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
        return [jax.device_put(x, placement) for x in arrays]


def execute(executable, devices: Sequence, arrays: Sequence, stacked: bool) -> list:
    """Run once; per result a numpy array (stacked: [devices, ...] rows in device order)."""
    import numpy as np

    try:
        results = executable.execute_sharded(_place(devices, arrays, stacked))
    except Exception as err:
        raise BackendError(f"PjRt could not run the program: {err}") from None
    per_result = results.disassemble_into_single_device_arrays()
    if stacked:
        return [np.concatenate([np.asarray(s) for s in shards]) for shards in per_result]
    return [np.asarray(shards[0]) for shards in per_result]


def time_executions(executable, devices: Sequence, arrays: Sequence, stacked: bool,
                    repeats: int) -> list[float]:
    """Wall time of `repeats` runs after one warm-up (inputs resident, results awaited)."""
    import time

    if repeats <= 0:
        return []
    placed = _place(devices, arrays, stacked)

    def once() -> None:
        results = executable.execute_sharded(placed)
        for shards in results.disassemble_into_single_device_arrays():
            for shard in shards:
                shard.block_until_ready()

    once()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        once()
        times.append(time.perf_counter() - start)
    return times


def devices_for(client, count: int) -> list:
    devices = client.devices()
    if len(devices) < count:
        raise RuntimeError(
            f"the mesh needs {count} devices but the {client.platform} backend has "
            f"{len(devices)}" + (" (pass --devices N for CPU host devices)"
                                 if client.platform == "cpu" else ""))
    return list(devices[:count])


# --------------------------------------------------------------------------- shardpy.jit
# A JAX primitive standing for "run this per-device module": its lowering inlines the
# module (jax.interpreters.mlir.merge_mlir_modules) and calls its main. Bound inside a
# fully manual jax.shard_map, it runs once per device with local arrays.

_PER_DEVICE_PRIMITIVE: list = []


def _per_device_primitive():
    if _PER_DEVICE_PRIMITIVE:
        return _PER_DEVICE_PRIMITIVE[0]
    from jax.extend.core import Primitive
    from jax.interpreters import mlir as jax_mlir
    from jaxlib.mlir.dialects import func as func_dialect

    primitive = Primitive("shardpy_per_device")
    primitive.multiple_results = True
    primitive.def_abstract_eval(lambda *args, out_avals, module_text: out_avals)

    def lower(ctx, *args, out_avals, module_text):
        source = ir.Module.parse(module_text, context=ctx.module_context.context)
        name = jax_mlir.merge_mlir_modules(ctx.module_context.module, "shardpy_per_device",
                                           source)
        types = [ir.RankedTensorType.get(a.shape, jax_mlir.dtype_to_ir_type(a.dtype))
                 for a in out_avals]
        return list(func_dialect.CallOp(types, ir.FlatSymbolRefAttr.get(name),
                                        list(args)).results)

    jax_mlir.register_lowering(primitive, lower)
    _PER_DEVICE_PRIMITIVE.append(primitive)
    return primitive


def shard_map_executor(module_text: str, mesh, in_specs, out_specs, local_outs, donate=()):
    """A jitted function of global jax.Arrays running `module_text` on every device."""
    import jax

    primitive = _per_device_primitive()
    out_avals = tuple(jax.core.ShapedArray(tuple(shape), dtype) for shape, dtype in local_outs)

    def per_device(*xs):
        return tuple(primitive.bind(*xs, out_avals=out_avals, module_text=module_text))

    if mesh is None:  # nothing is sharded: the program runs whole where it is called
        return jax.jit(per_device, donate_argnums=tuple(donate))
    mapped = jax.shard_map(per_device, mesh=mesh, in_specs=tuple(in_specs),
                           out_specs=tuple(out_specs), check_vma=False)
    explicit = any(t == jax.sharding.AxisType.Explicit for t in mesh.axis_types)

    def run(*xs):
        # Arguments arrive laid out however the caller had them; the program wants the
        # layout shardpy chose for @main (explicit-sharding meshes need jax.reshard).
        placed = []
        for x, spec in zip(xs, in_specs):
            target = jax.sharding.NamedSharding(mesh, spec)
            placed.append(jax.reshard(x, target) if explicit
                          else jax.lax.with_sharding_constraint(x, target))
        return mapped(*placed)

    return jax.jit(run, donate_argnums=tuple(donate))
