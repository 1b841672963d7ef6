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


def is_sharding_attr(name: str) -> bool:
    return name.startswith("sdy.") or name == "mhlo.sharding"


def custom_call_target(op: ir.Operation) -> str | None:
    if op.name != "stablehlo.custom_call":
        return None
    return ir.StringAttr(op.attributes["call_target_name"]).value
