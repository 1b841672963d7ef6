"""ir/cpu_complex_sums.py: complex summing all_reduces and reduce_scatters run on
(real, imag) pairs before XLA:CPU compiles the per-device module (XLA aborts on a
broadcast complex constant's: test_xla_cpu_bugs.py). These pin the rewrite; execution
is proven by test/Regressions/xla_complex_sum_of_broadcast_constant_across_devices.mlir
(shardpy-run --check runs the rewritten module on the CPU mesh)."""
from __future__ import annotations

from jaxlib.mlir import ir

from shardpy.ir.cpu_complex_sums import complex_sums_on_pairs
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.ir.utils import collect_ops

GROUPS = ("channel_handle = #stablehlo.channel_handle<handle = {h}, type = 1>, "
          "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>")


def body(t: str, reducer: str = "add") -> str:
    return f"""({{
    ^bb0(%a: tensor<{t}>, %b: tensor<{t}>):
      %c = stablehlo.{reducer} %b, %a : tensor<{t}>
      stablehlo.return %c : tensor<{t}>
    }})"""


# A complex sum all_reduced, one reduce_scattered along dim 1, a complex product and an
# f32 sum (both left alone).
MODULE = f"""
module @m attributes {{mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func public @main(%x: tensor<3x4xcomplex<f32>>, %y: tensor<3xf32>)
      -> (tensor<3x4xcomplex<f32>>, tensor<3x1xcomplex<f32>>, tensor<3x4xcomplex<f32>>,
          tensor<3xf32>) {{
    %s = "stablehlo.all_reduce"(%x) <{{{GROUPS.format(h=1)}, use_global_device_ids}}> {body("complex<f32>")} : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
    %r = "stablehlo.reduce_scatter"(%x) <{{{GROUPS.format(h=2)}, scatter_dimension = 1 : i64, use_global_device_ids}}> {body("complex<f32>")} : (tensor<3x4xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>
    %p = "stablehlo.all_reduce"(%x) <{{{GROUPS.format(h=3)}, use_global_device_ids}}> {body("complex<f32>", "multiply")} : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
    %f = "stablehlo.all_reduce"(%y) <{{{GROUPS.format(h=4)}, use_global_device_ids}}> {body("f32")} : (tensor<3xf32>) -> tensor<3xf32>
    return %s, %r, %p, %f : tensor<3x4xcomplex<f32>>, tensor<3x1xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3xf32>
  }}
}}
"""


def test_complex_sums_run_on_pairs_along_a_new_last_dim():
    with make_context() as context:
        module = ir.Module.parse(MODULE, context)
        assert complex_sums_on_pairs(module.operation) == 2
        assert module.operation.verify()
        ops = [op for op in collect_ops(module.operation)
               if op.name in ("stablehlo.all_reduce", "stablehlo.reduce_scatter")]
        types = [str(op.results[0].type) for op in ops]
        assert types == ["tensor<3x4x2xf32>", "tensor<3x1x2xf32>",
                         "tensor<3x4xcomplex<f32>>", "tensor<3xf32>"]
        # same groups and channels; the reduce_scatter keeps its dim; f32 add reducers
        assert [str(op.attributes["channel_handle"]) for op in ops] == [
            f"#stablehlo.channel_handle<handle = {h}, type = 1>" for h in (1, 2, 3, 4)]
        assert ir.IntegerAttr(ops[1].attributes["scatter_dimension"]).value == 1
        assert all("use_global_device_ids" in op.attributes for op in ops)
        for op in ops[:2]:
            reducer = [o.operation for o in op.regions[0].blocks[0].operations][0]
            assert reducer.name == "stablehlo.add"
            assert str(reducer.results[0].type) == "tensor<f32>"
        # the function's results are complex values rebuilt from the pairs
        ret = next(op for op in collect_ops(module.operation) if op.name == "func.return")
        made = [v.owner.name for v in ret.operands]
        assert made == ["stablehlo.complex", "stablehlo.complex", "stablehlo.all_reduce",
                        "stablehlo.all_reduce"]
        assert str(ret.operands[1].type) == "tensor<3x1xcomplex<f32>>"
