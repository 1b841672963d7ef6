"""Executor.compile_partitioned_by_xla (shardpy-run --against-xla): XLA's own
partitioning of a global module, with the boundary shardings shardpy's per-device
program has, so that the two run and compare alike."""
from __future__ import annotations

import numpy as np
import pytest
from jaxlib.mlir import ir

from shardpy.ir.diagnostics import ShardpyError
from shardpy.runtime import executor as runtime
from shardpy.runtime import hlo_collectives as hc

# A scalar argument, an unannotated result (made whole) and a scalar result.
MODULE = """
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %s: tensor<f32>)
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
        tensor<f32>, tensor<6xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x6xf32>
  %m = stablehlo.multiply %a, %b : tensor<8x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<f32>
  %c = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
  return %m, %t, %c : tensor<8x6xf32>, tensor<f32>, tensor<6xf32>
}
"""


def test_xla_partitions_the_module_with_its_boundary_shardings(ctx):
    module = ir.Module.parse(MODULE, ctx)
    sig = runtime.signature(module.operation)
    a = np.arange(48, dtype=np.float32).reshape(8, 6)
    s = np.float32(0.5)
    program = runtime.Executor("cpu").compile_partitioned_by_xla(
        module.operation, sig, [a, s], 8)
    result = program.run()
    np.testing.assert_allclose(result.outputs[0], a * s)
    np.testing.assert_allclose(result.outputs[1], (a * s).sum(), rtol=1e-6)
    np.testing.assert_allclose(result.outputs[2], (a * s).sum(0), rtol=1e-6)
    assert all(d == 0 for d in result.replica_divergence)
    # The result's sharding as given: [{}, {"y"}] -> 8x3 blocks; unannotated: whole.
    assert [v.type.shape for v in program.local_sig.results] == [(8, 3), (), (6,)]
    assert program.run_once() > 0
    found = hc.read_collectives(program.hlo_instructions(hc.OPCODES), 8)
    assert found.collectives  # the sums over "x" and "y" cross devices


def test_an_unreduced_boundary_value_is_refused(ctx):
    text = MODULE.replace('[{}, {"y"}]>}', '[{}, {}], unreduced={"x"}>}', 1)
    module = ir.Module.parse(text, ctx)
    sig = runtime.signature(module.operation)
    with pytest.raises(ShardpyError, match="out0 is unreduced"):
        runtime.Executor("cpu").compile_partitioned_by_xla(
            module.operation, sig, [np.zeros((8, 6), np.float32), np.float32(1)], 8)


def test_a_boundary_xla_lays_out_otherwise_is_refused(ctx):
    # 10 rows over "x"=4: XLA's Shardy keeps only the 2 of "x" that divide 10.
    module = ir.Module.parse(MODULE.replace("8x6", "10x6"), ctx)
    sig = runtime.signature(module.operation)
    with pytest.raises(ShardpyError, match="laid arg0 out as .* not as annotated"):
        runtime.Executor("cpu").compile_partitioned_by_xla(
            module.operation, sig, [np.zeros((10, 6), np.float32), np.float32(1)], 8)


def test_an_uneven_boundary_crosses_padded_where_asked(ctx):
    """pad_uneven (the reference of a run over several processes): the same 10 rows
    over "x"=4 cross XLA's boundary padded to 12 (3-row blocks, the last one 1 row and
    zeros), laid out as shardpy's per-device rows, and come back as the whole result."""
    module = ir.Module.parse(MODULE.replace("8x6", "10x6"), ctx)
    sig = runtime.signature(module.operation)
    a = np.arange(60, dtype=np.float32).reshape(10, 6)
    program = runtime.Executor("cpu").compile_partitioned_by_xla(
        module.operation, sig, [a, np.float32(2)], 8, pad_uneven=True)
    assert [v.type.shape for v in program.local_sig.args] == [(3, 3), ()]
    result = program.run()
    np.testing.assert_allclose(result.outputs[0], a * 2)
    np.testing.assert_allclose(result.outputs[1], (a * 2).sum(), rtol=1e-6)
    np.testing.assert_allclose(result.outputs[2], (a * 2).sum(0), rtol=1e-6)
    assert all(d == 0 for d in result.replica_divergence)


def test_pad_boundary_wraps_the_entry_function(ctx):
    from shardpy.sharding.sdy_codec import ShardingCodec

    module = ir.Module.parse(MODULE.replace("8x6", "10x6"), ctx)
    sig = runtime.signature(module.operation)
    mesh = ShardingCodec.for_module(module.operation).meshes["mesh"]
    boundary = [v.sharding or runtime.TensorSharding.replicated_on(mesh, len(v.type.shape),
                                                                  "mesh")
                for v in sig.args + sig.results]
    boundary[2] = boundary[0]  # out0 on rows too: padded on the way out
    runtime.pad_boundary(module, sig, boundary)
    assert module.operation.verify()
    text = str(module)
    assert "func.func private @shardpy_unpadded_main(%arg0: tensor<10x6xf32>" in text
    assert "func.func @main(%arg0: tensor<12x6xf32>, %arg1: tensor<f32>) -> " \
        "(tensor<12x6xf32>, tensor<f32>, tensor<6xf32>)" in text
    assert "stablehlo.slice %arg0 [0:10, 0:6]" in text
    assert "stablehlo.pad %1#0, %cst, low = [0, 0], high = [2, 0], interior = [0, 0]" in text


def test_collective_summary():
    found = hc.HloCollectives([
        hc.Collective("all_reduce", 8, 768, [], 1536.0, ""),
        hc.Collective("all_gather", 4, 128, [], 512.0, ""),
        hc.Collective("all_reduce", 8, 768, [], 1536.0, "")])
    assert found.summary() == "3 (1 all_gather, 2 all_reduce) / 3.5 KiB"
    assert hc.HloCollectives().summary() == "none"
