"""lowering/reducers.py: the identities a split reduction fills and starts from, and
which init values count as one, in every element type (bf16 included: numpy does not
count ml_dtypes' bfloat16 among its floating types, and its attributes have no numpy
buffer, so before these tests a bf16 max started from 1 and min from 0, and a bf16
reduce over a sharded dim was never split)."""
from __future__ import annotations

import numpy as np
import pytest
from jaxlib.mlir import ir

from shardpy.lowering import reducers

CASES = [  # (element type, reducer, identity)
    ("f32", "stablehlo.maximum", -np.inf), ("f32", "stablehlo.minimum", np.inf),
    ("bf16", "stablehlo.maximum", -np.inf), ("bf16", "stablehlo.minimum", np.inf),
    ("f16", "stablehlo.maximum", -np.inf), ("f64", "stablehlo.minimum", np.inf),
    ("bf16", "stablehlo.add", 0.0), ("bf16", "stablehlo.multiply", 1.0),
    ("i32", "stablehlo.maximum", -2**31), ("i32", "stablehlo.minimum", 2**31 - 1),
    ("ui8", "stablehlo.maximum", 0), ("ui8", "stablehlo.minimum", 255),
    ("i1", "stablehlo.or", 0), ("i1", "stablehlo.and", 1),
]


def _literal(element: str, value) -> str:
    if isinstance(value, float) and np.isinf(value):  # written as its bits in hex
        from shardpy.ir.types import numpy_dtype

        with ir.Context():
            dtype = numpy_dtype(ir.Type.parse(element))
        return "0x%X" % np.array(value, dtype).view(f"u{dtype.itemsize}")
    if element == "i1":
        return "true" if value else "false"
    return f"{float(value):.1f}" if element in ("f32", "f64", "f16", "bf16") else str(value)


@pytest.mark.parametrize("element,reducer,identity", CASES)
def test_identity(element, reducer, identity):
    with ir.Context():
        found = reducers.identity_value(reducer, ir.Type.parse(element))
    assert found == identity


@pytest.mark.parametrize("element,reducer,identity", CASES)
def test_init_holds_identity(element, reducer, identity):
    """A constant init equal to the identity counts as one; another value does not."""
    from shardpy.ir.jaxlib_bridge import make_context

    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(f"""
func.func @f() -> (tensor<{element}>, tensor<{element}>) {{
  %a = stablehlo.constant dense<{_literal(element, identity)}> : tensor<{element}>
  %b = stablehlo.constant dense<{_literal(element, 0 if identity else 1)}> : tensor<{element}>
  return %a, %b : tensor<{element}>, tensor<{element}>
}}""")
        ret = list(module.body.operations[0].regions[0].blocks[0].operations)[-1]
        identity_init, other = ret.operands
        assert reducers.is_identity_init(identity_init, reducer)
        assert not reducers.is_identity_init(other, reducer)
