"""shardpy-combine-collectives: a block's independent reduce_scatters over the same
devices combined into one (one latency instead of one each; the same bytes). Runs on
the per-device module shardpy-to-local leaves. See shardpy.partition.combine_collectives.

before:
    %a = "stablehlo.reduce_scatter"(%ga) <{scatter_dimension = 0 ...}> : (tensor<64x8xf32>) -> tensor<16x8xf32>
    %b = "stablehlo.reduce_scatter"(%gb) <{scatter_dimension = 0 ...}> : (tensor<32xf32>) -> tensor<8xf32>
after:
    %0 = stablehlo.reshape %ga : (tensor<64x8xf32>) -> tensor<4x128xf32>
    %1 = stablehlo.reshape %gb : (tensor<32xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<4x128xf32>, tensor<4x8xf32>) -> tensor<4x136xf32>
    %3 = "stablehlo.reduce_scatter"(%2) <{scatter_dimension = 0 ...}> : (tensor<4x136xf32>) -> tensor<1x136xf32>
    %a = slice %3 [0:1, 0:128], reshape to tensor<16x8xf32>
    %b = slice %3 [0:1, 128:136], reshape to tensor<8xf32>
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.partition.combine_collectives import MAX_BYTES, combine_reduce_scatters
from shardpy.pass_registry import option, register_pass


@register_pass("shardpy-combine-collectives")
@dataclass(frozen=True)
class CombineCollectives:
    """Combine independent reduce_scatters of one element type, reducer and replica
    groups (per-device module)."""

    max_bytes: int = option(MAX_BYTES, "the most operand bytes one combined "
                            "reduce_scatter takes")

    def run(self, module: ir.Operation) -> None:
        combine_reduce_scatters(module, self.max_bytes)
