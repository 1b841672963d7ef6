"""ir/cpu_collective_dims.py: all_gathers and reduce_scatters along a minor dim moved to
dim 0 (transposes around them) before XLA:CPU compiles the per-device module. These pin
the rewrite and run it against the module as written; every executable lit test whose
per-device module gathers or scatters along a minor dim runs it too (shardpy-run's
Executor prepares modules for XLA:CPU)."""
from __future__ import annotations

from jaxlib.mlir import ir

from shardpy.ir.cpu_collective_dims import collectives_on_dim0
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.ir.utils import collect_ops

# A per-device module over 4 devices: a reduce_scatter along dim 2, an all_gather along
# dim 1, and one along dim 1 with only a unit dim before it (left alone).
MODULE = """
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2x3x8xf32>, %y: tensor<2x3xf32>, %z: tensor<1x3xf32>)
      -> (tensor<2x3x2xf32>, tensor<2x12xf32>, tensor<1x12xf32>) {
    %s = "stablehlo.reduce_scatter"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 2 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<2x3x8xf32>) -> tensor<2x3x2xf32>
    %g = "stablehlo.all_gather"(%y) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x3xf32>) -> tensor<2x12xf32>
    %h = "stablehlo.all_gather"(%z) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<1x3xf32>) -> tensor<1x12xf32>
    return %s, %g, %h : tensor<2x3x2xf32>, tensor<2x12xf32>, tensor<1x12xf32>
  }
}
"""


def test_minor_dim_collectives_move_to_dim0():
    with make_context() as context:
        module = ir.Module.parse(MODULE, context)
        assert collectives_on_dim0(module.operation) == 2
        assert module.operation.verify()
        ops = [op for op in collect_ops(module.operation)
               if op.name in ("stablehlo.all_gather", "stablehlo.reduce_scatter")]
        dims = [ir.IntegerAttr(op.attributes["scatter_dimension" if "reduce" in op.name
                                              else "all_gather_dim"]).value for op in ops]
        assert dims == [0, 0, 1]  # (the all_gather of %z has only a unit dim before it)
        shapes = [ir.RankedTensorType(op.results[0].type).shape for op in ops]
        assert shapes == [[2, 2, 3], [12, 2], [1, 12]]
        names = [op.name for op in collect_ops(module.operation)]
        assert names.count("stablehlo.transpose") == 4
        # the function's results keep their types
        ret = next(op for op in collect_ops(module.operation) if op.name == "func.return")
        assert [ir.RankedTensorType(v.type).shape for v in ret.operands] == [
            [2, 3, 2], [2, 12], [1, 12]]


# A bf16 x bf16 = f32 dot of an all_gather's result: XLA:CPU would run it, with the
# transpose folded into its operand's layout, as a DotThunk that refuses bf16 (fuzz seed
# 1169; test_xla_cpu_bugs.py pins the XLA bug). Nothing in such a module moves.
BF16_DOT_MODULE = """
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%y: tensor<6x2xbf16>, %x: tensor<2x3x8xf32>)
      -> (tensor<6x6xf32>, tensor<2x12x8xf32>) {
    %g = "stablehlo.all_gather"(%y) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<6x2xbf16>) -> tensor<6x8xbf16>
    %d = stablehlo.dot_general %g, %g, contracting_dims = [1] x [1] : (tensor<6x8xbf16>, tensor<6x8xbf16>) -> tensor<6x6xf32>
    %h = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x3x8xf32>) -> tensor<2x12x8xf32>
    return %d, %h : tensor<6x6xf32>, tensor<2x12x8xf32>
  }
}
"""


def test_nothing_moves_in_a_module_with_a_widening_bf16_dot():
    with make_context() as context:
        module = ir.Module.parse(BF16_DOT_MODULE, context)
    assert collectives_on_dim0(module.operation) == 0  # (no context entered, as in run_fuzz)
    with context:
        # the same dot with a bf16 result is run by XLA:CPU in any layout
        text = BF16_DOT_MODULE.replace("-> tensor<6x6xf32>", "-> tensor<6x6xbf16>").replace(
            "(tensor<6x6xf32>, tensor<2x12x8xf32>)", "(tensor<6x6xbf16>, tensor<2x12x8xf32>)"
        ).replace("return %d, %h : tensor<6x6xf32>", "return %d, %h : tensor<6x6xbf16>")
        module = ir.Module.parse(text, context)
        assert collectives_on_dim0(module.operation) == 2
        assert module.operation.verify()
