"""The `nans` feature: NaN reaching a max or min across devices.

A program that draws it (about 1 in 10, from an RNG of its own: programs that do not
draw it are the same as without the feature) gets, at the end of @main, one to three
reductions of a float value of the pool into which a NaN (of either sign: sqrt(-1), or
its negation) was put at one index along a dim: the value is constrained to shard that
dim on a mesh axis and reduced by maximum or minimum over it (and maybe another dim),
so the NaN must cross devices. StableHLO's maximum/minimum propagate NaN; the CPU
runtime's float all_reduce does not (partition/collectives.py, _ordered_all_reduce;
seed 5001843 of the plain generator found it). The results join the pool.
"""
from __future__ import annotations

import random

from fuzz_text import Value, infinity, int_list, ttype

PROBABILITY = 1 / 10
XLA_CPU_NAN_LIMIT = 4096


def draws(seed: int) -> bool:
    return random.Random(f"nans {seed}").random() < PROBABILITY


def add(fb, seed: int) -> None:
    """Append the reductions to `fb` (the @main FuncBuilder) when `seed` draws them."""
    if not draws(seed):
        return
    rng = random.Random(f"nans body {seed}")
    axes = [(name, size) for name, size in fb.gen.mesh if size > 1]
    # (Under XLA_CPU_NAN_LIMIT elements: XLA:CPU's own one-device max/min of 4,096
    # elements or more drops NaN, so the reference would be wrong, seed 3202235 of a
    # 10,000 run; test_xla_cpu_bugs.py pins it.)
    floats = [v for v in fb.pool if v.dtype == "f32" and v.shape and all(v.shape)
              and v.elems < XLA_CPU_NAN_LIMIT]
    if not axes or not floats:
        return
    for _ in range(rng.randint(1, 3)):
        v = rng.choice(floats)
        dim = rng.randrange(len(v.shape))
        name, _size = rng.choice(axes)
        with_nan = _nan_at(fb, v, dim, rng.randrange(v.shape[dim]), rng.random() < 0.4)
        dims = [f'{{"{name}"}}' if d == dim else "{?}" for d in range(len(v.shape))]
        ref = fb.fresh()
        fb.emit(f"{ref} = sdy.sharding_constraint {with_nan} <@mesh, [{', '.join(dims)}]> : "
                f"{v.type}")
        reduced = sorted({dim} | ({rng.randrange(len(v.shape))} if rng.random() < 0.3
                                  else set()))
        kind = rng.choice(["maximum", "minimum"])
        init, out = fb.fresh(), fb.fresh()
        fb.emit(f"{init} = stablehlo.constant dense<{infinity(negative=kind == 'maximum')}>"
                f" : {ttype((), 'f32')}")
        shape = tuple(n for d, n in enumerate(v.shape) if d not in reduced)
        fb.emit(f"{out} = stablehlo.reduce({ref} init: {init}) applies stablehlo.{kind} "
                f"across dimensions = {int_list(reduced)} : ({v.type}, {ttype((), 'f32')}) "
                f"-> {ttype(shape, 'f32')}")
        fb.use(v)
        fb.ops += 1
        fb.pool.append(Value(out, shape, "f32", v.mag, False, nan=True))


def _nan_at(fb, v: Value, dim: int, index: int, negative: bool) -> str:
    """`v` with NaN at `index` along `dim` (select on an iota)."""
    i32 = ttype(v.shape, "i32")
    iota, at, where, minus_one, nan = (fb.fresh() for _ in range(5))
    fb.emit(f"{iota} = stablehlo.iota dim = {dim} : {i32}")
    fb.emit(f"{at} = stablehlo.constant dense<{index}> : {i32}")
    fb.emit(f"{where} = stablehlo.compare EQ, {iota}, {at}, SIGNED : ({i32}, {i32}) -> "
            f"{ttype(v.shape, 'i1')}")
    fb.emit(f"{minus_one} = stablehlo.constant dense<-1.000000e+00> : {v.type}")
    fb.emit(f"{nan} = stablehlo.sqrt {minus_one} : {v.type}")
    if negative:
        negated = fb.fresh()
        fb.emit(f"{negated} = stablehlo.negate {nan} : {v.type}")
        nan = negated
    out = fb.fresh()
    fb.emit(f"{out} = stablehlo.select {where}, {nan}, {v.ref} : {ttype(v.shape, 'i1')}, "
            f"{v.type}")
    fb.ops += 3
    return out
