"""shardpy-export-gspmd: sdy shardings -> GSPMD `mhlo.sharding` strings.

For tools downstream that still read GSPMD (XLA's GSPMD partitioner, older JAX and
PyTorch/XLA tooling). `shardpy-import` of the output gives the same shardings back.

before:
    sdy.mesh @mesh = <["x"=2, "y"=4]>
    func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
        -> tensor<16x32xf32> {
      %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {"y", ?}]> : tensor<16x32xf32>
      return %0 : tensor<16x32xf32>
    }
after:
    func.func @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"})
        -> tensor<16x32xf32> {
      %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]",
          mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
      return %0 : tensor<16x32xf32>
    }

Sub-axes split the mesh axes they cut; meshes with device_ids give explicit device
lists; manual computations become @SPMDFullToShardShape/@SPMDShardToFullShape pairs.
Priorities and open dims outside constraints are dropped (GSPMD has neither); unreduced
axes and sdy collectives are errors.
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.gspmd.export_gspmd import export_module
from shardpy.pass_registry import register_pass


@register_pass("shardpy-export-gspmd")
@dataclass(frozen=True)
class ExportGspmd:
    """Write sdy shardings as GSPMD mhlo.sharding strings and custom calls."""

    def run(self, module: ir.Operation) -> None:
        export_module(module)
