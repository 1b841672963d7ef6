"""The layout vocabulary: ops and attributes that only say how values are laid out.

Dropping them leaves the global computation (shardpy-strip-shardings; the reference
XLA's partitioner runs for per-device code, runtime/reference.py).
"""
from __future__ import annotations

from jaxlib.mlir import ir

# Ops whose results equal their first operand in the global (unpartitioned) view.
LAYOUT_ONLY_OPS = frozenset({
    "sdy.sharding_constraint", "sdy.reshard", "sdy.propagation_barrier",
    "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute",
    "sdy.all_reduce", "sdy.reduce_scatter", "sdy.replicated_to_unreduced",
    "sdy.sharded_to_unreduced", "sdy.data_flow_edge",
})
ERASED_OPS = frozenset({"sdy.mesh", "sdy.sharding_group"})
GSPMD_LAYOUT_TARGETS = frozenset({"Sharding"})
GSPMD_MANUAL_TARGETS = frozenset({"SPMDFullToShardShape", "SPMDShardToFullShape"})
MODULE_PARTITION_ATTRS = ("mhlo.num_partitions", "mhlo.num_replicas")
PARTITIONS_ATTR = MODULE_PARTITION_ATTRS[0]


def num_partitions(module: ir.Operation) -> int | None:
    """The module's mhlo.num_partitions (what JAX and PyTorch/XLA write), if any."""
    if PARTITIONS_ATTR not in module.attributes:
        return None
    try:
        return ir.IntegerAttr(module.attributes[PARTITIONS_ATTR]).value
    except (ValueError, TypeError):
        return None


def set_num_partitions(module: ir.Operation, count: int) -> None:
    """mhlo.num_partitions = count (in the module's context)."""
    with module.context:
        module.attributes[PARTITIONS_ATTR] = ir.IntegerAttr.get(
            ir.IntegerType.get_signless(32), count)


def is_sharding_attr(name: str) -> bool:
    return name.startswith("sdy.") or name == "mhlo.sharding"


def custom_call_target(op: ir.Operation) -> str | None:
    if op.name != "stablehlo.custom_call":
        return None
    return ir.StringAttr(op.attributes["call_target_name"]).value
