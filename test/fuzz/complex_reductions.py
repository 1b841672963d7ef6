"""Sums of complex values: a float pool value taken complex (x + i sin x, as
gradients.py makes them) before a sum (FuncBuilder.op_reduce_random) or a sum over
windows, jnp.cumsum's form among them (op_reduce_window_random), the complex result
read back as real + imag. Their init is a complex constant, which jaxlib's bindings
could not read (shardpy crashed or failed on any complex sum until it registered its
own caster; test/Regressions/complex_reductions_read_their_constants.mlir). Its own
RNG: programs that do not draw it stay the same; none with Features.bf16 (there is no
complex<bf16>).
"""
from __future__ import annotations

import random

from fuzz_text import Value
from gradients import as_complex, real_plus_imag

PROBABILITY = 0.2  # of a sum of f32 values
ZERO = "(0.000000e+00,0.000000e+00)"


def draw(fb) -> bool:
    """Is this sum (of an f32 value) taken in complex?"""
    gen = fb.gen
    if not gen.features.complex_reductions or gen.features.bf16:
        return False
    rng = getattr(gen, "complex_reduction_rng", None)
    if rng is None:
        rng = gen.complex_reduction_rng = random.Random(f"complex reductions {gen.seed}")
    return rng.random() < PROBABILITY


def operand(fb, x: Value) -> Value:
    """x + i sin(x): the sum's operand (not in the pool: other ops take no complex)."""
    return as_complex(fb, x)


def back_to_real(fb, ref: str, shape, mag: float) -> Value:
    """The complex sum `ref` (|.| <= mag) as real + imag, an f32 value."""
    return Value(real_plus_imag(fb, ref, shape), tuple(shape), "f32", 2 * mag, False)

