"""shardpy-propagate: give every value a sharding.

Shardings flow from the ones the user wrote (func arguments/results, sharding
constraints, op shardings) along the factors of each op's sharding rule (see
`shardpy.sharding.op_rule` and `shardpy.ops`), through loops, branches, calls and manual
computations, until nothing changes. The result is written the way Shardy writes it.

before:
    sdy.mesh @mesh = <["x"=2, "y"=4]>
    func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                    %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
        -> tensor<8x32xf32> {
      %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0]
          : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %1 = stablehlo.negate %0 : tensor<8x32xf32>
      return %1 : tensor<8x32xf32>
    }
after:
    func.func @main(%a: ... [{"x"}, {}]>, %w: ... [{}, {"y"}]>)
        -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
      %0 = stablehlo.dot_general %a, %w, ...
          {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} ...
      %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
      return %1 : tensor<8x32xf32>
    }

Strategies (Shardy's hierarchy): `basic` (only axes all tensors of an op agree on),
`aggressive` (conflicts between factors resolved in favour of the larger source tensor),
`op-priority` (aggressive; pass-through ops first, then pass-through factors of all ops
with broadcasts only backwards, then everything) and `user-priority` (op-priority once
per user priority p0, p1, ...; the default).

Functions called from several places are cloned per call site first, so each can be
sharded for its caller. Ops without a sharding rule get a warning and no sharding flow.
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.ops.registry import RULES, WITHOUT_RULE
from shardpy.pass_registry import option, register_pass
from shardpy.propagation.propagate import Strategy, propagate_module


@register_pass("shardpy-propagate")
@dataclass(frozen=True)
class Propagate:
    """Give every value a sharding (factor rules + Shardy's strategy hierarchy)."""

    strategy: Strategy = option(Strategy.USER_PRIORITY,
                                "basic | aggressive | op-priority | user-priority")
    close_shardings: bool = option(True, "close every dimension afterwards, as Shardy's "
                                         "export does")
    warn_missing_rules: bool = option(True, "warn once per op name without a sharding rule")

    def run(self, module: ir.Operation) -> None:
        propagate_module(module, RULES, self.strategy, self.close_shardings,
                         self.warn_missing_rules, WITHOUT_RULE)
