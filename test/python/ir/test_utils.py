"""shardpy.ir.utils: the IR helpers every stage builds with."""
from __future__ import annotations

import re

import pytest
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import func

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
