"""shardpy-insert-reshards: make every op computable on local shards.

Operands whose sharding differs from what the op's sharding rule needs get an
`sdy.reshard`; a result whose computation leaves partial sums (a sharded contraction)
is marked `unreduced` and followed by an `sdy.all_reduce` unless its users want it
partial; sharding constraints become reshards. See shardpy.partition.insert_reshards.

before (propagated):
    %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0]
        {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
        // %a: [{"x"}, {"y"}], %w: [{"y"}, {}]
after:
    %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0]
        {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>}
    %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]>
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.partition.insert_reshards import ExplicitReshards, require_static_shapes
from shardpy.ops.registry import RULES
from shardpy.partition.maximal import drop_maximal_shardings
from shardpy.pass_registry import option, register_pass
from shardpy.sharding.collective_time import load_profile


@register_pass("shardpy-insert-reshards")
@dataclass(frozen=True)
class InsertReshards:
    """Insert sdy.reshard / sdy.all_reduce so every op can compute on local shards."""

    platform: str = option("cpu", "the collective time profile's platform (cpu | gpu | "
                           "tpu): each op's placement is the fastest by it, then the one "
                           "moving the fewest bytes")

    def run(self, module: ir.Operation) -> None:
        require_static_shapes(module)
        drop_maximal_shardings(module)  # computed replicated (partition/maximal.py)
        ExplicitReshards(module, RULES, load_profile(self.platform)).run()
