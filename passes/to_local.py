"""shardpy-to-local: the per-device program.

Every value takes the local shape of its sharding, sdy collectives become stablehlo
collectives over replica groups of logical device ids, and values that depend on
where a device's shard starts (iota, non-splat constants, slices of collectives) read
their offsets from per-device tables indexed by stablehlo.partition_id. See
shardpy.partition.to_local.

Option compact (auto | on | off): with it on, the per-device module's size does not
depend on the device count: collectives name their groups by mesh axes
(`replica_groups = #stablehlo.replica_group_mesh_axes<mesh = ..., axes = [...]>`),
shard offsets are computed from the partition id ((id // stride) % size per axis) and
other per-shard values (padding counts, halo windows) read from a table with one entry
per shard instead of per device, on meshes whose devices are in iota order. auto (the
default) turns it on above 64 devices; below, dense lists of device ids and tables
stay (short, and readable).

before:
    sdy.mesh @mesh = <["x"=4]>
    func.func @main(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
        -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
      %0 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
      return %0 : tensor<16x8xf32>
    }
after:
    module attributes {mhlo.num_partitions = 4 : i32, shardpy.per_device} {
    func.func @main(%a: tensor<4x8xf32> {sdy.sharding = ...}) -> (tensor<16x8xf32> {...}) {
      %0 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = ...,
          replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}>
          : (tensor<4x8xf32>) -> tensor<16x8xf32>
      return %0 : tensor<16x8xf32>
    }
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from shardpy.partition.to_local import LocalLowering
from shardpy.ir.diagnostics import ShardpyError
from shardpy.pass_registry import option, register_pass


@register_pass("shardpy-to-local")
@dataclass(frozen=True)
class ToLocal:
    """Global shapes and sdy collectives -> per-device shapes and stablehlo collectives."""

    compact: str = option(
        "auto", "on: per-device code whose size does not depend on the device count "
        "(collectives name their groups by mesh axes, #stablehlo.replica_group_mesh_axes; "
        "per-shard values from the partition id), where a mesh's devices are in "
        "iota order; off: dense lists of device ids and per-device tables; auto: on "
        "above 64 devices")

    def run(self, module: ir.Operation) -> None:
        if self.compact not in ("auto", "on", "off"):
            raise ShardpyError(f"shardpy-to-local: compact must be auto, on or off, not "
                               f"'{self.compact}'")
        LocalLowering(module, self.compact).run()
