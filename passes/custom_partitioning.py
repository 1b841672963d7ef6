"""shardpy-custom-partitioning: jax.experimental.custom_partitioning ops partitioned by
their own rule (registered in the process that lowered the program: shardpy.jit puts
this pass between shardpy-choose-shardings and shardpy-insert-reshards when the module
has such ops). See shardpy.partition.custom_partitioning.

before:
    %r = stablehlo.custom_call @CustomSPMDPartitioning(%a) {backend_config = "1396...",
        sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, ...}
after:
    %r = sdy.manual_computation(%a) in_shardings=[<the rule's>]
            out_shardings=[<the rule's>] manual_axes={"x", "y"} (%l: ...) {
      %0 = func.call @custom_partitioned(%l)
      sdy.return %0
    }
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.partition.custom_partitioning import partition_custom_ops
from shardpy.pass_registry import register_pass


@register_pass("shardpy-custom-partitioning")
@dataclass(frozen=True)
class CustomPartitioning:
    """Partition custom_partitioning ops by their rules (in the lowering process only)."""

    def run(self, module: ir.Operation) -> None:
        partition_custom_ops(module)
