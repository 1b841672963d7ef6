"""Element and tensor types as host Python sees them: numpy dtypes and byte sizes.

Used by every stage that weighs bytes (insert-reshards, the windowed lowerings,
reshard-to-collectives) and by the runtime that moves arrays.
"""
from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir


def numpy_dtype(element: ir.Type) -> np.dtype | None:
    import ml_dtypes  # ships with jaxlib

    if isinstance(element, ir.F32Type):
        return np.dtype(np.float32)
    if isinstance(element, ir.F64Type):
        return np.dtype(np.float64)
    if isinstance(element, ir.F16Type):
        return np.dtype(np.float16)
    if isinstance(element, ir.BF16Type):
        return np.dtype(ml_dtypes.bfloat16)
    if isinstance(element, ir.IntegerType):
        int_type = ir.IntegerType(element)
        if int_type.width == 1:
            return np.dtype(np.bool_)
        kind = "uint" if int_type.is_unsigned else "int"
        if int_type.width in (8, 16, 32, 64):
            return np.dtype(f"{kind}{int_type.width}")
    if isinstance(element, ir.ComplexType):
        inner = numpy_dtype(ir.ComplexType(element).element_type)
        if inner == np.float32:
            return np.dtype(np.complex64)
        if inner == np.float64:
            return np.dtype(np.complex128)
    return None


def element_bytes(element: ir.Type) -> int:
    if isinstance(element, ir.ComplexType):
        return 2 * element_bytes(ir.ComplexType(element).element_type)
    if isinstance(element, ir.IntegerType):
        return max(1, ir.IntegerType(element).width // 8)
    if isinstance(element, ir.FloatType):
        return max(1, ir.FloatType(element).width // 8)
    return 0


def tensor_bytes(value_type: ir.Type) -> int:
    if not isinstance(value_type, ir.RankedTensorType):
        return 0
    ranked = ir.RankedTensorType(value_type)
    return int(np.prod(ranked.shape, dtype=np.int64)) * element_bytes(ranked.element_type)
