"""shardpy-strip-shardings: drop every sharding annotation, keep the computation.

What is left is the global program as one device runs it: the reference that every
partitioned run is checked against.

before:
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
        -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
      %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
      %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
      return %1 : tensor<8xf32>
    }
after:
    func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      %0 = stablehlo.negate %arg0 : tensor<8xf32>
      return %0 : tensor<8xf32>
    }

Ops that only say how a value is laid out (sharding_constraint, reshard, sdy
collectives, propagation_barrier, GSPMD `@Sharding` custom calls) are replaced by their
operand; sharding groups and meshes are erased; named computations are inlined.
Manual computations are per-device code and cannot be made global: they are errors.
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.ir.diagnostics import ShardpyError
from shardpy.ir.layout import (ERASED_OPS, GSPMD_LAYOUT_TARGETS, GSPMD_MANUAL_TARGETS,
                               LAYOUT_ONLY_OPS, MODULE_PARTITION_ATTRS, custom_call_target,
                               is_sharding_attr)
from shardpy.ir.utils import (collect_ops, erase_op_forwarding_operands,
                              filter_signature_attrs, inline_region_before)
from shardpy.ops.collectives import STABLEHLO_COLLECTIVES, cross_partition
from shardpy.pass_registry import register_pass


def has_per_device_code(module: ir.Operation) -> bool:
    """Does `module` hold per-device code without a global form: manual computations,
    or collectives across partitions (their groups name devices)?"""
    return any(op.name == "sdy.manual_computation" or custom_call_target(op)
               in GSPMD_MANUAL_TARGETS or (op.name in STABLEHLO_COLLECTIVES
                                          and cross_partition(op))
               for op in collect_ops(module))


@register_pass("shardpy-strip-shardings")
@dataclass(frozen=True)
class StripShardings:
    """Remove all shardings, meshes and layout-only ops (the single-device program)."""

    def run(self, module: ir.Operation) -> None:
        for name in MODULE_PARTITION_ATTRS:
            if name in module.attributes:
                del module.attributes[name]
        for op in collect_ops(module):
            name = op.name
            target = custom_call_target(op)
            if name == "sdy.manual_computation" or target in GSPMD_MANUAL_TARGETS:
                raise ShardpyError(
                    f"'{target or name}' holds per-device code; it has no single-device "
                    f"meaning to run as a reference", op.location)
            if name in LAYOUT_ONLY_OPS or target in GSPMD_LAYOUT_TARGETS:
                erase_op_forwarding_operands(op)
            elif name in ERASED_OPS:
                op.erase()
            elif name == "sdy.named_computation":
                inline_region_before(op)
            else:
                for attr in list(op.attributes):
                    if is_sharding_attr(attr):
                        del op.attributes[attr]
                if name == "func.func":
                    filter_signature_attrs(op, is_sharding_attr)
