"""Text of generated programs: types, literals and the values the generator tracks.

Shared by generate.py (the program generator) and ops_issue6.py (its emitters of the
issue-6 ops: indexing, sort, windows, control flow).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

MAX_ELEMS = 4096          # every tensor has fewer elements than this
FLOAT_LIMIT = 1.0e4       # values whose bound exceeds this are squashed before reuse
INT_LIMIT = 4096


def is_nice(n: int) -> bool:
    """Dims are 1, 2, 4 or multiples of 8: every mesh axis (product) up to 8 divides a
    multiple of 8, so propagated shardings stay even (the dims made without
    Features.uneven_dims)."""
    return n in (1, 2, 4) or (n > 0 and n % 8 == 0)


def ttype(shape, dtype: str) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + dtype + ">"


def fmt_float(x: float) -> str:
    return f"{x:.6e}"


def dense(values, shape, dtype: str) -> str:
    """Nested dense literal of a flat list in row-major order."""
    fmt = fmt_float if dtype == "f32" else (lambda v: str(int(v)))
    if not shape:
        return fmt(values[0])

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
    sliced: bool = False      # made by a dynamic_slice (see Features.indexed_dynamic_slices)

    @property
    def type(self) -> str:
        return ttype(self.shape, self.dtype)

    @property
    def elems(self) -> int:
        return math.prod(self.shape)
