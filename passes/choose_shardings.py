"""shardpy-choose-shardings: the shardings propagation placed, chosen again for the whole
program by estimated time (candidate shardings per value, each op costed by its plan,
the cheapest combination found exactly by variable elimination or, for programs whose
ops tie too many values together, an integer program). See
shardpy.partition.choose_shardings.

before (propagated; FSDP weights sharded along d pulled the activations onto d):
    %x = stablehlo.add %tok, %pos {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"data"}]>]>}
after:
    %x = stablehlo.add %tok, %pos {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}, {}]>]>}
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.ops.registry import RULES
from shardpy.partition.insert_reshards import require_static_shapes
from shardpy.partition.maximal import drop_maximal_shardings
from shardpy.partition.choose_shardings import MAX_OPS, ShardingChoice
from shardpy.pass_registry import option, register_pass
from shardpy.sharding.collective_time import load_profile


@register_pass("shardpy-choose-shardings")
@dataclass(frozen=True)
class ChooseShardings:
    """Choose the propagated shardings again for the whole program by estimated time."""

    platform: str = option("cpu", "the collective time profile's platform (cpu | gpu | tpu)")
    max_ops: int = option(MAX_OPS, "programs of more ops keep propagation's shardings "
                          "(the choice costs ~2.5 s at 50k ops)")

    def run(self, module: ir.Operation) -> None:
        require_static_shapes(module)
        drop_maximal_shardings(module)  # computed replicated (partition/maximal.py)
        ShardingChoice(module, RULES, load_profile(self.platform), self.max_ops).run()
