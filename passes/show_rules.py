"""shardpy-show-rules: attach each op's sharding rule, as `sdy-populate-op-sharding-rules`
does with Shardy's, so our rule table can be read and FileChecked.

before:
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
        : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.custom_call @my_kernel(%0) : (tensor<16x64xf32>) -> tensor<16x64xf32>
after:
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding_rule =
        #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=16, j=64, k=32} reduction={k}>}
        : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.custom_call @my_kernel(%0) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    warning: no sharding rule for 'stablehlo.custom_call' @my_kernel; propagation stops here

An op that already carries `sdy.sharding_rule` keeps it. Ops without a rule get a
warning, except those propagation handles structurally (the op registry's structural
ops: func.*, sdy.*, while, case, if, optimization_barrier, region terminators) and those
that need none by design (constants, iota, tokens: `shardpy.ops.registry.WITHOUT_RULE`).
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.ir.diagnostics import warning
from shardpy.ir.utils import collect_ops
from shardpy.ops.registry import RULES, WITHOUT_RULE, ops_with, rule_for
from shardpy.pass_registry import register_pass
from shardpy.sharding.op_rule import RULE_ATTR

# The registry's structural ops (Flow), and the module; ops of these dialects and
# terminators shardpy does not know are not reported either.
STRUCTURAL_OPS = ops_with(lambda e: e.structural) | {"builtin.module"}
STRUCTURAL_DIALECTS = ("func.", "sdy.")
TERMINATOR_SUFFIXES = (".return", ".yield")


def is_structural(name: str) -> bool:
    """Ops propagation handles by itself, without a rule (the op registry's structural
    ops), and ops of the dialects it handles that way."""
    return (name in STRUCTURAL_OPS or name.startswith(STRUCTURAL_DIALECTS)
            or name.endswith(TERMINATOR_SUFFIXES))


@register_pass("shardpy-show-rules")
@dataclass(frozen=True)
class ShowRules:
    """Attach every op's sharding rule as `sdy.sharding_rule`; warn about ops without."""

    def run(self, module: ir.Operation) -> None:
        for op in collect_ops(module):
            if RULE_ATTR in op.attributes:
                continue
            rule = rule_for(op, RULES)
            if rule is not None:
                op.attributes[RULE_ATTR] = rule.to_attr()
                continue
            name = op.name
            if is_structural(name) or name in WITHOUT_RULE:
                continue
            what = f"'{name}'"
            if name == "stablehlo.custom_call":
                what += " @" + ir.StringAttr(op.attributes["call_target_name"]).value
            warning(op.location, f"no sharding rule for {what}; propagation stops here")
