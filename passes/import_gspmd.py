"""shardpy-import: GSPMD shardings (PyTorch/XLA, JAX without Shardy) -> sdy.

The first pass of `shardpy-partition`: it lets HLO text from PyTorch/XLA and StableHLO
from pre-Shardy JAX go through the same pipeline as sdy modules. Modules without GSPMD
annotations are left as they are, except that inlined sdy meshes
(`#sdy.sharding<mesh<["x"=2]>, ...>`) become `sdy.mesh` symbols first, reusing an
identical declared one, as Shardy's import does (shardpy.sharding.inlined_meshes).

before:
    func.func @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                    %arg1: tensor<32x64xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
        -> tensor<16x64xf32> {
      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : ...
      %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : ...
      return %1 : tensor<16x64xf32>
    }
after:
    sdy.mesh @mesh = <["axis_0"=2, "axis_1"=4]>
    func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>},
                    %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"axis_1"}]>})
        -> tensor<16x64xf32> {
      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : ...
      %1 = sdy.sharding_constraint %0 <@mesh, [{"axis_0"}, {"axis_1"}]> : tensor<16x64xf32>
      return %1 : tensor<16x64xf32>
    }

One mesh is derived for the whole module: its axes refine every tile assignment's
factors and its device order reproduces them (device_ids where a tile assignment is
no transposed iota); shardings that cannot share it get further meshes. `{maximal
device=k}` gets `@maximal_mesh_k`. `@SPMDFullToShardShape` ... `@SPMDShardToFullShape`
regions become `sdy.manual_computation`s over their manual axes. Shardings that cannot
be expressed are errors at the op that carries them, naming the string.
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.gspmd.import_gspmd import import_module
from shardpy.pass_registry import register_pass


@register_pass("shardpy-import")
@dataclass(frozen=True)
class ImportGspmd:
    """Turn GSPMD shardings (mhlo.sharding, @Sharding, SPMD*Shape pairs) into sdy."""

    def run(self, module: ir.Operation) -> None:
        import_module(module)
