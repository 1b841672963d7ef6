"""Python callbacks in a module: jax.debug.print and jax.debug.callback,
jax.pure_callback, io_callback.

JAX lowers each to a custom call that names a function of the lowering process by its
position in that lowering's list of host callbacks:

    stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {has_side_effect = true,
        mhlo.backend_config = {index = 0 : ui64}, ...} : (tensor<f32>) -> ()

The partitioner keeps the call and its index. Whoever compiles the per-device module
must hand XLA the same functions, at positions the indices name: `rebind` renumbers the
calls into the list of the lowering that inlines the module (shardpy.jit's executor).
A module read from a file has no such list, and XLA would call through an index that
names nothing (a crash): `find` lets the runner refuse it with a clear error.
"""
from __future__ import annotations

from typing import Callable, Sequence

from jaxlib.mlir import ir

TARGETS = frozenset(f"xla_ffi{partitioned}_python_{device}_callback"
                    for partitioned in ("", "_partitioned") for device in ("cpu", "gpu"))
INDEX_ATTR = "mhlo.backend_config"
# jax.experimental.custom_partitioning's op: its backend_config names the partition rule,
# a Python function of the lowering process that XLA's partitioner calls back.
CUSTOM_PARTITIONING = "CustomSPMDPartitioning"
NOT_PARTITIONED = ("a jax.experimental.custom_partitioning op: its partition rule is a "
                   "Python function of the process that lowered the program, so only "
                   "shardpy.jit can partition it")
# Why a runner without the lowering's list refuses such a module.
NOT_RUNNABLE = ("the program calls a Python callback (jax.debug.print, jax.pure_callback, "
                "io_callback): its function lives in the process that lowered the program, "
                "so only shardpy.jit can run it")


def is_python_callback(op: ir.Operation) -> bool:
    return (op.name == "stablehlo.custom_call"
            and ir.StringAttr(op.attributes["call_target_name"]).value in TARGETS)


def find(module: ir.Operation, targets=TARGETS) -> list[ir.Operation]:
    """The module's calls of `targets` (Python callbacks), in order."""
    found = []

    def visit(op):
        op = op.operation
        if op.name == "stablehlo.custom_call" and ir.StringAttr(
                op.attributes["call_target_name"]).value in targets:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def index_of(op: ir.Operation) -> int | None:
    if INDEX_ATTR not in op.attributes:
        return None
    try:
        return ir.IntegerAttr(ir.DictAttr(op.attributes[INDEX_ATTR])["index"]).value
    except (ValueError, KeyError):  # not a dictionary holding an integer index
        return None


def rebind(module: ir.Operation, callbacks: Sequence[Callable],
           add: Callable[[Callable], int]) -> None:
    """Point every callback call of `module` (indices into `callbacks`, the list of the
    lowering that made it) at `add(callback)`, its index in the list of the lowering
    that inlines `module`. Each call gets its own entry, as JAX's lowering gives it."""
    u64 = ir.IntegerType.get_unsigned(64)
    for op in find(module):
        index = index_of(op)
        if index is None or not 0 <= index < len(callbacks):
            raise ValueError(f"{op.location}: a Python callback call names callback "
                             f"{index}, and its lowering made {len(callbacks)}")
        config = {a.name: a.attr for a in ir.DictAttr(op.attributes[INDEX_ATTR])}
        config["index"] = ir.IntegerAttr.get(u64, add(callbacks[index]))
        op.attributes[INDEX_ATTR] = ir.DictAttr.get(config)
