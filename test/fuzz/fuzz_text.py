"""Text of generated programs: types, literals and the values the generator tracks.

Shared by generate.py (the program generator) and ops_issue6.py (its emitters of the
issue-6 ops: indexing, sort, windows, control flow).
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass

MAX_ELEMS = 4096          # every tensor has fewer elements than this
FLOAT_LIMIT = 1.0e4       # values whose bound exceeds this are squashed before reuse
INT_LIMIT = 4096


def is_nice(n: int) -> bool:
    """Dims are 1, 2, 4 or multiples of 8: every mesh axis (product) up to 8 divides a
    multiple of 8, so propagated shardings stay even (the dims made without
    Features.uneven_dims)."""
    return n in (1, 2, 4) or (n > 0 and n % 8 == 0)


# The element type printed for the generator's float values. Their dtype stays "f32"
# in the generator (every random choice is the same); run_fuzz's float64 check prints
# the same program with f64 (see floats_printed_as) for an exact reference.
float_text = "f32"
# +inf and -inf as hex literals of the printed float type (MLIR wants all the bits).
INFINITY_HEX = {"f32": ("0x7F800000", "0xFF800000"),
                "f64": ("0x7FF0000000000000", "0xFFF0000000000000"),
                "bf16": ("0x7F80", "0xFF80")}
# LAPACK's Cholesky of the printed float type (the FFI targets jaxlib registers on CPU).
POTRF_TARGET = {"f32": "lapack_spotrf_ffi", "f64": "lapack_dpotrf_ffi"}


@contextmanager
def floats_printed_as(element: str):
    """Print the generator's f32 values as `element` (f32, f64 or bf16) inside the
    block."""
    global float_text
    if element not in INFINITY_HEX:
        raise ValueError(f"unsupported float element type '{element}'")
    saved, float_text = float_text, element
    try:
        yield
    finally:
        float_text = saved


# The generator's complex values ("c64"): complex of the printed float type (bf16 has
# none: programs with Features.bf16 draw no complex values).
COMPLEX = "c64"


def element_text(dtype: str) -> str:
    if dtype == COMPLEX:
        return f"complex<{float_text}>"
    return float_text if dtype == "f32" else dtype


def ttype(shape, dtype: str) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + element_text(dtype) + ">"


def infinity(negative: bool = False) -> str:
    """+inf (-inf) as a literal of the printed float type."""
    return INFINITY_HEX[float_text][1 if negative else 0]


def potrf_target() -> str:
    return POTRF_TARGET[float_text]


def fmt_float(x: float) -> str:
    return f"{x:.6e}"


def dense(values, shape, dtype: str) -> str:
    """Nested dense literal of a flat list in row-major order."""
    fmt = fmt_float if dtype == "f32" else (lambda v: str(int(v)))
    if not shape:
        return fmt(values[0])
    if 0 in shape:
        return ""  # dense<> : an empty tensor of any shape ("[]" would be one of [0])

    def nest(flat, dims):
        if len(dims) == 1:
            return "[" + ", ".join(fmt(v) for v in flat) + "]"
        step = len(flat) // dims[0]
        return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    return nest(list(values), list(shape))


def int_list(xs) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


@dataclass
class Value:
    ref: str                  # SSA name as used: %v3, %v3#1, %arg0
    shape: tuple[int, ...]
    dtype: str                # f32 | i32
    mag: float                # upper bound of |value| (rough)
    exact: bool = True        # independent of summation order / transcendental rounding
    contracted: frozenset = frozenset()  # mesh axes a dot contraction was sharded on
    uses: int = 0
    # Marks of known XLA bugs (see generate.Features), set on the value an op makes and
    # on the values XLA may replace by it.
    sliced: bool = False      # a dynamic_slice's result (Features.indexed_dynamic_slices)
    top_k: bool = False       # a chlo.top_k result (Features.top_k_through_barrier)
    nan: bool = False         # holds NaN (nans.py)

    @property
    def type(self) -> str:
        return ttype(self.shape, self.dtype)

    def marked_as(self, *values: "Value") -> "Value":
        """This value, with the marks of any of `values`: XLA may replace it by one of
        them (a while's carry by its initial value and its result by that or the
        body's value once a loop that runs at most once is inlined, a case result by a
        branch's, a callee argument by the operand once the call is inlined)."""
        self.sliced = self.sliced or any(v.sliced for v in values)
        self.top_k = self.top_k or any(v.top_k for v in values)
        self.nan = self.nan or any(v.nan for v in values)
        return self

    @property
    def elems(self) -> int:
        return math.prod(self.shape)
