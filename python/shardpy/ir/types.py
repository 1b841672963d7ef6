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
    name = _ML_DTYPES.get(str(element))  # the 8-bit floats jax.numpy has
    return np.dtype(getattr(ml_dtypes, name)) if name and hasattr(ml_dtypes, name) else None


# MLIR spelling -> ml_dtypes name (jnp.float8_e4m3fn and friends are these dtypes). Not
# the sub-byte ints and floats (int4...): XLA:CPU rejects a dot of such parameters in a
# manual computation ("custom element sizes on non-sub-byte types"), jax's shard_map too.
_ML_DTYPES = {"f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
              "f8E4M3FNUZ": "float8_e4m3fnuz", "f8E5M2FNUZ": "float8_e5m2fnuz",
              "f8E4M3B11FNUZ": "float8_e4m3b11fnuz", "f8E4M3": "float8_e4m3",
              "f8E3M4": "float8_e3m4", "f8E8M0FNU": "float8_e8m0fnu"}


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
