"""The `linalg` feature: stablehlo.fft, cholesky and triangular_solve on sharded values.

These ops work along whole dims (the transformed dims, the matrix dims) and pass their
leading batch dims through: shardpy computes them on each device's batch shards and
gathers a transformed or matrix dim that is sharded (ops/linalg.py). A program that
draws the feature (about 1 in 8, from an RNG of its own: programs that do not draw it
are the same as without the feature; none with Features.bf16, as XLA:CPU has no bf16
FFT or factorization) gets, at the end of @main, one or two sections:

  fft       a float value of the pool, squashed (tanh), one dim constrained onto a mesh
            axis (a batch dim or a transformed one: gathered for the fft, the corner
            where XLA:CPU's fft once failed on an all_gather's layout, see
            python/shardpy/ir/cpu_fft_layouts.py), then one of
              RFFT over its last one or two dims, read back as real + imag;
              RFFT then IRFFT of the same lengths (the value again, up to rounding);
              FFT or IFFT of x + i sin x, read back as real + imag
  cholesky  a batch of positive definite matrices (the Gram matrix of a squashed value
            plus (n + 1) I), the batch or a matrix dim constrained onto a mesh axis, its
            lower or upper Cholesky factor (the other triangle masked to zero: the spec
            leaves it to the implementation) and triangular_solve with the factor of a
            squashed right-hand side (left or right side, transposed or not)

Results join the pool, as inexact values.
"""
from __future__ import annotations

import math
import random

from fuzz_text import COMPLEX, MAX_ELEMS, Value, ttype
from gradients import real_plus_imag

PROBABILITY = 1 / 8


def draws(seed: int) -> bool:
    return random.Random(f"linalg {seed}").random() < PROBABILITY


def add(fb, seed: int) -> bool:
    """Append the sections to `fb` (the @main FuncBuilder) when `seed` draws them;
    whether it did."""
    if not draws(seed) or fb.gen.features.bf16:
        return False
    rng = random.Random(f"linalg body {seed}")
    axes = [(name, size) for name, size in fb.gen.mesh if size > 1]
    if not axes:
        return False
    added = False
    for _ in range(rng.randint(1, 2)):
        section = _fft if rng.random() < 0.5 else _cholesky
        added = section(fb, rng, axes) or added
    return added


def _constrained(fb, rng, v: Value, axes, dims=None) -> Value:
    """`v` with one of `dims` (default: any) constrained onto a mesh axis, the other
    dims open. An axis that does not divide the dim only with Features.uneven_dims."""
    dims = list(range(len(v.shape))) if dims is None else dims
    dim = rng.choice(dims)
    fits = [(n, s) for n, s in axes
            if fb.gen.features.uneven_dims or v.shape[dim] % s == 0]
    if not fits:
        return v
    name, _ = rng.choice(fits)
    spec = ", ".join(f'{{"{name}"}}' if d == dim else "{?}" for d in range(len(v.shape)))
    ref = fb.fresh()
    fb.emit(f"{ref} = sdy.sharding_constraint {v.ref} <@mesh, [{spec}]> : {v.type}")
    return Value(ref, v.shape, v.dtype, v.mag, v.exact)


def _squashed(fb, v: Value) -> Value:
    ref = fb.fresh()
    fb.emit(f"{ref} = stablehlo.tanh {v.ref} : {v.type}")
    fb.use(v)
    fb.ops += 1
    return Value(ref, v.shape, "f32", 1.0, False)


def _fft(fb, rng, axes) -> bool:
    sources = [v for v in fb.pool if v.dtype == "f32" and v.shape and all(v.shape)
               and not v.nan and 2 * math.prod(v.shape) < MAX_ELEMS]
    if not sources:
        return False
    v = rng.choice(sources)
    rank = len(v.shape)
    count = rng.choice([1, 2]) if rank >= 2 else 1
    lengths = list(v.shape[rank - count:])
    x = _constrained(fb, rng, _squashed(fb, v), axes)
    form = rng.choice(["rfft", "roundtrip", "complex"])
    ref = fb.fresh()
    if form == "complex":
        sine, z = fb.fresh(), fb.fresh()
        fb.emit(f"{sine} = stablehlo.sine {x.ref} : {x.type}")
        fb.emit(f"{z} = stablehlo.complex {x.ref}, {sine} : {ttype(x.shape, COMPLEX)}")
        kind = rng.choice(["FFT", "IFFT"])
        ctype = ttype(x.shape, COMPLEX)
        fb.emit(f"{ref} = stablehlo.fft {z}, type = {kind}, length = {lengths} : "
                f"({ctype}) -> {ctype}")
        out = real_plus_imag(fb, ref, x.shape)
        fb.ops += 3
        # |x + i sin x| <= 2; an FFT sums prod(lengths) of them, an IFFT averages
        mag = 4.0 * (math.prod(lengths) if kind == "FFT" else 1.0)
        fb.pool.append(Value(out, x.shape, "f32", mag, False))
        return True
    half = x.shape[:-1] + (x.shape[-1] // 2 + 1,)
    fb.emit(f"{ref} = stablehlo.fft {x.ref}, type = RFFT, length = {lengths} : "
            f"({x.type}) -> {ttype(half, COMPLEX)}")
    fb.ops += 1
    if form == "rfft":
        out = real_plus_imag(fb, ref, half)
        fb.pool.append(Value(out, half, "f32", 2.0 * math.prod(lengths), False))
        return True
    back = fb.fresh()
    fb.emit(f"{back} = stablehlo.fft {ref}, type = IRFFT, length = {lengths} : "
            f"({ttype(half, COMPLEX)}) -> {x.type}")
    fb.ops += 1
    fb.pool.append(Value(back, x.shape, "f32", 1.0, False))
    return True


def _cholesky(fb, rng, axes) -> bool:
    b = rng.choice([1, 2, 4, 6, 8])
    n = rng.choice([2, 3, 4])
    k = rng.choice([1, 2, 3])
    t = ttype((b, n, n), "f32")
    spd = fb.spd_batch(b, n)
    fb.ops += 3
    # the batch dim mostly; now and then a matrix dim (gathered for the factorization)
    a = _constrained(fb, rng, Value(spd, (b, n, n), "f32", 2.0 * n + 1, False), axes,
                     dims=[0] if rng.random() < 0.7 else [1, 2])
    lower = rng.random() < 0.7
    factor = fb.fresh()
    fb.emit(f"{factor} = stablehlo.cholesky {a.ref}, lower = {str(lower).lower()} : {t}")
    rows, cols, keep, zero, masked = (fb.fresh() for _ in range(5))
    it = ttype((b, n, n), "i32")
    fb.emit(f"{rows} = stablehlo.iota dim = 1 : {it}")
    fb.emit(f"{cols} = stablehlo.iota dim = 2 : {it}")
    fb.emit(f"{keep} = stablehlo.compare {'GE' if lower else 'LE'}, {rows}, {cols} : "
            f"({it}, {it}) -> {ttype((b, n, n), 'i1')}")
    fb.emit(f"{zero} = stablehlo.constant dense<0.000000e+00> : {t}")
    fb.emit(f"{masked} = stablehlo.select {keep}, {factor}, {zero} : "
            f"{ttype((b, n, n), 'i1')}, {t}")
    fb.ops += 6
    # |L_ij| <= sqrt(A_ii) <= sqrt(2n + 1)
    fb.pool.append(Value(masked, (b, n, n), "f32", math.sqrt(2.0 * n + 1), False))
    left = rng.random() < 0.5
    shape = (b, n, k) if left else (b, k, n)
    rhs = _constrained(fb, rng, _squashed(fb, fb.value_of(shape, "f32")), axes, dims=[0])
    transpose = rng.choice(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
    solved = fb.fresh()
    fb.emit(f'{solved} = "stablehlo.triangular_solve"({factor}, {rhs.ref}) '
            f"<{{left_side = {str(left).lower()}, lower = {str(lower).lower()}, "
            f"transpose_a = #stablehlo<transpose {transpose}>, unit_diagonal = false}}> : "
            f"({t}, {rhs.type}) -> {rhs.type}")
    fb.ops += 1
    # the factor's diagonal is at least sqrt(n + 1) >= 1 and its entries at most
    # sqrt(2n + 1): each unknown is bounded by a geometric sum of the right-hand side's
    fb.pool.append(Value(solved, shape, "f32", float((2 * n + 2) ** n), False))
    return True
