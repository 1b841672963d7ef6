"""shardpy.ir.utils: the IR helpers every stage builds with."""
from __future__ import annotations

import re

import pytest
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import func

from shardpy.ir.jaxlib_bridge import make_context
from shardpy.ir.utils import zeros


@pytest.mark.parametrize("element", ["i1", "i32", "ui8", "f32", "bf16", "f64",
                                     "complex<f32>", "complex<f64>"])
def test_zeros_of_every_element_kind(ctx, element):
    value_type = ir.RankedTensorType.parse(f"tensor<2x3x{element}>")
    with ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            @func.FuncOp.from_py_func()
            def made():
                return zeros(value_type)
    assert module.operation.verify()
    [constant] = [op for op in made.func_op.regions[0].blocks[0].operations
                  if op.name == "stablehlo.constant"]
    assert constant.result.type == value_type
    # One zero for the whole tensor, in the constant's printed form (a complex dense
    # attribute cannot be read back through the bindings).
    assert re.search(r"dense<(false|0|0\.0+e\+00|\(0\.0+e\+00,0\.0+e\+00\))>",
                     str(constant)), str(constant)


def test_chain_readers():
    """The ops of a chain from `old` to `new` that read `old` itself (what a lowering
    leaves out when it gives `old`'s other users `new`), not the ops further on."""
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.ir.utils import chain_readers

    with make_context():
        module = ir.Module.parse("""
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = stablehlo.negate %a : tensor<4xf32>
  %c = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi32>
  %d = stablehlo.bitcast_convert %c : (tensor<4xi32>) -> tensor<4xf32>
  %e = stablehlo.add %b, %d : tensor<4xf32>
  %f = stablehlo.multiply %e, %e : tensor<4xf32>
  return %f : tensor<4xf32>
}""")
        ops = list(module.body.operations[0].regions[0].blocks[0].operations)
        old = module.body.operations[0].regions[0].blocks[0].arguments[0]
        readers = chain_readers(ops[4].result, old)
        assert sorted(op.name for op in readers) == ["stablehlo.bitcast_convert",
                                                     "stablehlo.negate"]
        assert chain_readers(old, old) == []


def test_dense_constants_of_every_element_type_are_readable():
    """jaxlib's own downcast raises on complex dense attributes (and aborts the process
    through a NamedAttribute); make_context registers one that gives them the generic
    class and integers and floats their usual ones."""
    from shardpy.ir.utils import complex_scalar_attr, complex_splat

    with make_context(), ir.Location.unknown():
        module = ir.Module.parse("""
          func.func @f() -> (tensor<complex<f32>>, tensor<2xi32>, tensor<f32>, tensor<i1>) {
            %c = stablehlo.constant dense<(1.5, -2.0)> : tensor<complex<f32>>
            %i = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
            %f = stablehlo.constant dense<0.5> : tensor<f32>
            %b = stablehlo.constant dense<true> : tensor<i1>
            return %c, %i, %f, %b : tensor<complex<f32>>, tensor<2xi32>, tensor<f32>, tensor<i1>
          }""")
        ops = list(module.body.operations[0].regions[0].blocks[0].operations)[:4]
        values = [op.attributes["value"] for op in ops]
        assert [type(v) for v in values] == [ir.DenseElementsAttr, ir.DenseIntElementsAttr,
                                            ir.DenseFPElementsAttr, ir.DenseIntElementsAttr]
        assert type(ops[0].attributes[0].attr) is ir.DenseElementsAttr
        assert complex_splat(values[0]) == 1.5 - 2j
        made = complex_scalar_attr(ir.ComplexType.get(ir.F64Type.get()), 3 + 4j)
        assert complex_splat(made) == 3 + 4j
