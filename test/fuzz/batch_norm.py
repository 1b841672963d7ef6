"""The `batch_norm` feature: stablehlo.batch_norm_training, _grad and _inference (what
PyTorch/XLA lowers BatchNorm and LayerNorm to) on values of the pool.

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature) takes, at the end of @main, a float value
of rank 2 or more, squashes it with tanh and adds a ramp along a batch dim (iota / n:
|x| < 2 and no feature's batch constant, so the batch variance, which the op computes
as E[x^2] - E[x]^2, is neither lost to cancellation nor zero), picks a feature dim, and
adds batch_norm_training over it with a new scale and offset
argument of @main each (drawn shardings), then batch_norm_grad of its statistics and a
gradient from the pool (or x itself), squashed and on the square of that ramp, and/or
batch_norm_inference. All results join the
pool. Sharded batches are the point: shardpy-import writes training and grad out as
reductions whose batch sums all_reduces finish (python/shardpy/gspmd/batch_norm.py).
"""
from __future__ import annotations

import random

from fuzz_text import Value, ttype

PROBABILITY = 1 / 8
EPSILON = "1.000000e-03"


def draws(seed: int) -> bool:
    return random.Random(f"batch_norm {seed}").random() < PROBABILITY


def add(fb, seed: int) -> bool:
    """Append the batch-norm ops to `fb` (the @main FuncBuilder) when `seed` draws them;
    whether it did."""
    if not draws(seed):
        return False
    rng = random.Random(f"batch_norm body {seed}")
    candidates = [v for v in fb.pool if v.dtype == "f32" and len(v.shape) >= 2
                  and all(v.shape)]
    if not candidates:
        return False
    source = rng.choice(candidates)
    feature = rng.randrange(len(source.shape))
    ramps = [d for d, size in enumerate(source.shape) if d != feature and size >= 2]
    if not ramps:
        return False
    ramp = rng.choice(ramps)
    x = _spread(fb, _tanh(fb, source), ramp)
    vec = (x.shape[feature],)
    scale, offset = fb.new_arg(vec, "f32"), fb.new_arg(vec, "f32")
    ref = fb.fresh()
    vtype = scale.type
    attrs = f"{{epsilon = {EPSILON} : f32, feature_index = {feature} : i64}}"
    fb.emit(f"{ref}:3 = \"stablehlo.batch_norm_training\"({x.ref}, {scale.ref}, "
            f"{offset.ref}) {attrs} : ({x.type}, {vtype}, {vtype}) -> "
            f"({x.type}, {vtype}, {vtype})")
    fb.use(x, scale, offset)
    fb.ops += 1
    # (|y| <= |scale| * sqrt(n) + |offset|: n the batch size; a rough bound suffices)
    # (NaN in x, nans.py's, reaches every output: marked, as mixed.py skips such values)
    y = Value(f"{ref}#0", x.shape, "f32", 5.0 * 32 + 5.0, False, nan=x.nan)
    mean = Value(f"{ref}#1", vec, "f32", 1.0, False, nan=x.nan)
    var = Value(f"{ref}#2", vec, "f32", 1.0, False, nan=x.nan)
    fb.pool.extend([y, mean, var])
    forms = rng.choice([("grad",), ("inference",), ("grad", "inference")])
    if "grad" in forms:
        partners = [v for v in fb.pool if v.dtype == "f32" and v.shape == x.shape
                    and v.ref not in (x.ref, y.ref)]
        dy = rng.choice(partners) if partners else x
        # dy on the square of x's ramp: the gradients of scale and offset, sums over
        # the batch of dy * x_hat and of dy, are then far from zero. (A dy constant along
        # the batch makes them sums that cancel to 0, whose float32 noise differs with
        # the order of the partial sums: seed 2913 of the 2026-11-27 run, 5.3e-5 against
        # 8.2e-7 on one device, a false alarm of the float64 check. On x's own ramp, a
        # dy whose tanh saturates is x plus a constant, and the operand's gradient, dy
        # less its mean and its part along x_hat, cancels to eps / var of its terms:
        # seed 12236, 1.4e-5 against 9.8e-7, the same false alarm.)
        dy = _spread(fb, _tanh(fb, dy), ramp, squared=True)
        g = fb.fresh()
        fb.emit(f"{g}:3 = \"stablehlo.batch_norm_grad\"({x.ref}, {scale.ref}, {mean.ref}, "
                f"{var.ref}, {dy.ref}) {attrs} : ({x.type}, {vtype}, {vtype}, {vtype}, "
                f"{x.type}) -> ({x.type}, {vtype}, {vtype})")
        fb.use(x, scale, mean, var, dy)
        fb.ops += 1
        bound = dy.mag * 5.0 * 32
        nan = x.nan or dy.nan
        fb.pool.extend([Value(f"{g}#0", x.shape, "f32", bound * 32, False, nan=nan),
                        Value(f"{g}#1", vec, "f32", bound * 32, False, nan=nan),
                        Value(f"{g}#2", vec, "f32", dy.mag * 1024, False, nan=nan)])
    if "inference" in forms:
        i = fb.fresh()
        fb.emit(f"{i} = \"stablehlo.batch_norm_inference\"({x.ref}, {scale.ref}, "
                f"{offset.ref}, {mean.ref}, {var.ref}) {attrs} : ({x.type}, {vtype}, "
                f"{vtype}, {vtype}, {vtype}) -> {x.type}")
        fb.use(x, scale, offset, mean, var)
        fb.ops += 1
        fb.pool.append(Value(i, x.shape, "f32", 5.0 * 32 + 5.0, False, nan=x.nan))
    return True


def _spread(fb, v: Value, dim: int, squared: bool = False) -> Value:
    """v + iota / n along `dim` (of size n >= 2; `squared`: + (iota / n)^2): no
    feature's batch is constant. (The statistics of a constant batch are exact on one
    device and off by a rounding on several, which 1 / sqrt(epsilon) then magnifies: a
    false alarm, not a bug.)"""
    n = v.shape[dim]
    iota, as_float, ramp, out = fb.fresh(), fb.fresh(), fb.fresh(), fb.fresh()
    itype = ttype(v.shape, "i32")
    fb.emit(f"{iota} = stablehlo.iota dim = {dim} : {itype}")
    fb.emit(f"{as_float} = stablehlo.convert {iota} : ({itype}) -> {v.type}")
    fb.emit(f"{ramp} = stablehlo.multiply {as_float}, "
            f"{_splat(fb, 1.0 / n, v.type)} : {v.type}")
    if squared:
        linear, ramp = ramp, fb.fresh()
        fb.emit(f"{ramp} = stablehlo.multiply {linear}, {linear} : {v.type}")
        fb.ops += 1
    fb.emit(f"{out} = stablehlo.add {v.ref}, {ramp} : {v.type}")
    fb.use(v)
    fb.ops += 4
    value = Value(out, v.shape, v.dtype, 2.0, False, nan=v.nan)
    fb.pool.append(value)
    return value


def _splat(fb, number: float, type_text: str) -> str:
    ref = fb.fresh()
    fb.emit(f"{ref} = stablehlo.constant dense<{number:.9e}> : {type_text}")
    return ref


def _tanh(fb, v: Value) -> Value:
    ref = fb.fresh()
    fb.emit(f"{ref} = stablehlo.tanh {v.ref} : {v.type}")
    fb.use(v)
    fb.ops += 1
    value = Value(ref, v.shape, v.dtype, 1.0, False, nan=v.nan)
    fb.pool.append(value)
    return value
