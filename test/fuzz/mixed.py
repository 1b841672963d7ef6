"""The `mixed` feature: mixed precision, the way real training steps hold it.

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature; none in Features.bf16 programs, whose
floats are all bf16) gets, at the end of @main, one or two sections that take a float
value of the pool down to bf16 (or f16, 1 in 3), shard one of its dims on a mesh axis,
and compute on it there:

  dot     a dot_general of the narrow value with itself over the sharded dim, with an
          f32 result (bf16 operands, f32 accumulation: jnp.dot(..., preferred_element_type)):
          partial sums in f32 across devices (the operand held by an optimization
          barrier: an XLA:CPU bug, see _section)
  sum     a reduce add in the narrow type over the sharded dim: partial sums rounded
          to the narrow type, then a narrow all_reduce (what XLA does with jnp.sum of
          a bf16 array over a sharded dim)
  max     a reduce max in the narrow type over it: the ordered all_reduce of
          partition/collectives.py in 16 bits
  square  narrow elementwise math

The value is first made positive and bounded (exp(tanh(x)), in [0.37, 2.72]), so sums do
not cancel: the narrow results are compared with their type's tolerances (8 units of
its precision), the f32 ones with f32's. Their f64 program (run_fuzz's float64 check)
keeps the narrow values narrow (the dtype is printed as it is, not as the float type).
"""
from __future__ import annotations

import math
import random

from fuzz_text import MAX_ELEMS, Value, int_list, ttype

PROBABILITY = 1 / 8
KINDS = ("dot", "sum", "max", "square")


def draws(seed: int) -> bool:
    return random.Random(f"mixed {seed}").random() < PROBABILITY


def add(fb, seed: int) -> bool:
    """Append the sections to `fb` (the @main FuncBuilder) when `seed` draws them;
    whether it did."""
    if not draws(seed) or fb.gen.features.bf16:
        return False
    rng = random.Random(f"mixed body {seed}")
    axes = [(name, size) for name, size in fb.gen.mesh if size > 1]
    # (Not the values nans.py put NaN into, nor copies of them: XLA:CPU returns garbage
    # for exp(tanh(.)) of their max, one device or not; test_xla_cpu_bugs.py pins it.)
    floats = [v for v in fb.pool if v.dtype == "f32" and v.shape and all(v.shape)
              and not v.nan]
    if not axes or not floats:
        return False
    for _ in range(rng.randint(1, 2)):
        v = rng.choice(floats)
        narrow = "f16" if rng.random() < 1 / 3 else "bf16"
        dim = rng.randrange(len(v.shape))
        name, _ = rng.choice(axes)
        x = _narrowed(fb, v, narrow)
        dims = [f'{{"{name}"}}' if d == dim else "{?}" for d in range(len(v.shape))]
        sharded = fb.fresh()
        fb.emit(f"{sharded} = sdy.sharding_constraint {x} <@mesh, [{', '.join(dims)}]> : "
                f"{ttype(v.shape, narrow)}")
        fb.use(v)
        kind = rng.choice(KINDS)
        others = tuple(n for d, n in enumerate(v.shape) if d != dim)
        if kind == "dot" and math.prod(others) ** 2 >= MAX_ELEMS:
            kind = "sum"
        fb.pool.append(_section(fb, kind, sharded, v.shape, dim, others, narrow))
    return True


def _narrowed(fb, v: Value, narrow: str) -> str:
    """exp(tanh(v)) in f32 (positive, in [0.37, 2.72]), converted to `narrow`."""
    squashed, positive, out = fb.fresh(), fb.fresh(), fb.fresh()
    fb.emit(f"{squashed} = stablehlo.tanh {v.ref} : {v.type}")
    fb.emit(f"{positive} = stablehlo.exponential {squashed} : {v.type}")
    fb.emit(f"{out} = stablehlo.convert {positive} : ({v.type}) -> "
            f"{ttype(v.shape, narrow)}")
    fb.ops += 3
    return out


def _section(fb, kind: str, x: str, shape, dim: int, others: tuple, narrow: str
             ) -> Value:
    """One computation on the narrow value `x` (sharded along `dim`; `others`: the
    other dims' sizes): its result."""
    xtype = ttype(shape, narrow)
    out = fb.fresh()
    fb.ops += 1
    if kind == "dot":
        # (Its operand through an optimization barrier: XLA:CPU refuses a widening bf16
        # dot whose operand a gather, dynamic_slice or reduce fusion produces, as it
        # fuses them here, in the one-device reference too; seed 10002001.
        # test_xla_cpu_bugs.py pins it.)
        held = fb.fresh()
        fb.emit(f"{held} = stablehlo.optimization_barrier {x} : {xtype}")
        fb.ops += 1
        fb.emit(f"{out} = stablehlo.dot_general {held}, {held}, contracting_dims = [{dim}] x "
                f"[{dim}] : ({xtype}, {xtype}) -> {ttype(others + others, 'f32')}")
        return Value(out, others + others, "f32", 7.4 * shape[dim], False)
    if kind == "square":
        # (Left narrow: converted back to f32, XLA's excess precision may skip the
        # product's rounding on one device and not across a sharding constraint, seed
        # 9001385: 1/2 unit of bf16 apart, beyond f32's tolerances.)
        fb.emit(f"{out} = stablehlo.multiply {x}, {x} : {xtype}")
        return Value(out, tuple(shape), narrow, 7.4)
    init = fb.fresh()
    start = "0.000000e+00" if kind == "sum" else "-1.000000e+00"
    body = "add" if kind == "sum" else "maximum"
    fb.emit(f"{init} = stablehlo.constant dense<{start}> : {ttype((), narrow)}")
    fb.emit(f"{out} = stablehlo.reduce({x} init: {init}) applies stablehlo.{body} "
            f"across dimensions = {int_list([dim])} : ({xtype}, {ttype((), narrow)}) -> "
            f"{ttype(others, narrow)}")
    mag = 2.72 * shape[dim] if kind == "sum" else 2.72
    return Value(out, others, narrow, mag, kind == "max")
