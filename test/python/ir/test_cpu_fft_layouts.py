"""ir/cpu_fft_layouts.py: every fft's operand and result put through the default layout
before XLA:CPU compiles the per-device module. Execution is proven by
test/Regressions/xla_fft_of_all_gather_along_minor_dim.mlir and
test/Partition/fft_linalg_batch_sharded.mlir (shardpy-run --check runs the rewritten
module on the CPU mesh); these pin the rewrite itself."""
from __future__ import annotations

from pathlib import Path

from jaxlib.mlir import ir

from shardpy.ir.cpu_fft_layouts import fft_layouts_pinned
from shardpy.ir.jaxlib_bridge import make_context
from shardpy.ir.utils import collect_ops

ROOT = Path(__file__).resolve().parents[3]
GATHERED = ROOT / "test" / "Regressions" / "xla_fft_of_all_gather_along_minor_dim.mlir"


def partitioned(context) -> ir.Module:
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.pipeline import Pipeline, PipelineOptions

    module = ir.Module.parse(GATHERED.read_text(), context)
    engine = DiagnosticEngine(str(GATHERED))
    with engine.capturing(context):
        assert Pipeline("builtin.module(shardpy-partition)", context,
                        PipelineOptions()).run(module, engine)
    return module


def producer(value):
    return value.owner if isinstance(value.owner, ir.Operation) else value.owner.operation


def test_operand_and_result_go_through_a_flat_barrier():
    with make_context() as context:
        module = partitioned(context)
        assert fft_layouts_pinned(module.operation) == 1
        module.operation.verify()
        fft = next(op for op in collect_ops(module.operation) if op.name == "stablehlo.fft")
        # operand: reshape(optimization_barrier(reshape(all_gather))) back to its shape
        back = producer(fft.operands[0])
        assert back.name == "stablehlo.reshape"
        barrier = producer(back.operands[0])
        assert barrier.name == "stablehlo.optimization_barrier"
        flat = producer(barrier.operands[0])
        assert flat.name == "stablehlo.reshape"
        assert ir.RankedTensorType(flat.results[0].type).shape == [5 * 16 * 2]
        assert producer(flat.operands[0]).name == "stablehlo.all_gather"
        # result: its only reader is the flattening reshape; the old readers read the
        # reshape back
        users = [u.owner for u in fft.results[0].uses]
        assert [getattr(u, "operation", u).name for u in users] == ["stablehlo.reshape"]
        names = [op.name for op in collect_ops(module.operation)]
        assert names.count("stablehlo.optimization_barrier") == 2
        assert names.count("stablehlo.real") == names.count("stablehlo.imag") == 1
        # (the fft's reader: the slice of this device's rows of its replicated result)
        piece = next(op for op in collect_ops(module.operation)
                     if op.name == "stablehlo.dynamic_slice"
                     and isinstance(ir.RankedTensorType(op.operands[0].type).element_type,
                                    ir.ComplexType))
        restored = producer(piece.operands[0])
        assert restored.name == "stablehlo.reshape"
        assert restored.results[0].type == fft.results[0].type
        assert producer(restored.operands[0]).name == "stablehlo.optimization_barrier"


def test_rank_1_ffts_are_left_alone():
    with make_context() as context:
        module = ir.Module.parse("""
func.func @main(%x: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
  return %0 : tensor<16xcomplex<f32>>
}""", context)
        assert fft_layouts_pinned(module.operation) == 0
        assert "optimization_barrier" not in str(module)
