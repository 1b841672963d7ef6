"""shardpy-reshard-to-collectives: replace each sdy.reshard by the collectives it needs.

The reshard planner (shardpy.partition.reshard_planner) picks the fastest sequence by the
platform's collective time profile, then the one moving the fewest bytes per device; a
reshard that needs nothing disappears. A plan that had to fall back to
"gather everything, then slice" is reported as a warning at the reshard's location.
See shardpy.partition.reshard_to_collectives.

before:
    %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>      // %0: [{"x"}, {}]
    %2 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>      // partial on "y"
after:
    %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %2 = sdy.reduce_scatter [{"y"}, {}] ... (partial sums reduced and split in one step)

Between meshes (a value moved onto another mesh at a call, a region's or a function's
result, a barrier), the plan's cross-mesh step is an sdy.collective_permute where both
meshes have the same axes (sdy allows a new device order there), else an sdy.reshard
between the two meshes that is left in place for shardpy-to-local (the only
sdy.reshard this pass leaves: same shard shapes on both sides):
    sdy.mesh @m8 = <["d"=2, "t"=4]>   sdy.mesh @m2 = <["d"=2]>
    %1 = sdy.reshard %0 <@m2, [{"d"}, {}]> : tensor<8x16xf32>      // %0: <@m8, [{"d"}, {}]>
  stays as it is (device 1 gets rows 4..7 from device 4 in shardpy-to-local), and
    %1 = sdy.reshard %0 <@reversed, [{"r"}, {}]> : tensor<12x4xf32>  // %0: <@plain, [{"r"}, {}]>
  becomes
    %1 = sdy.collective_permute %0 out_sharding=<@reversed, [{"r"}, {}]> : tensor<12x4xf32>
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.partition.reshard_to_collectives import lower_reshards
from shardpy.pass_registry import option, register_pass
from shardpy.sharding.collective_time import load_profile


@register_pass("shardpy-reshard-to-collectives")
@dataclass(frozen=True)
class ReshardToCollectives:
    """Lower every sdy.reshard to sdy collectives (the fastest plan, then the fewest
    bytes per device)."""

    platform: str = option("cpu", "the collective time profile's platform (cpu | gpu | "
                           "tpu): each reshard's plan is the fastest by it, then the one "
                           "moving the fewest bytes")

    def run(self, module: ir.Operation) -> None:
        lower_reshards(module, load_profile(self.platform))
