"""The `gradients` feature: weight gradients at the end of a backward pass.

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature) gets, at the end of @main, 2-4 products
shaped like FSDP weight gradients: `dot(x_i, g)` contracting a batch dim that both
operands shard on one mesh axis, its result constrained to shard one of its dims on
that axis. Each such dot is finished by a reduce_scatter (partial sums scattered onto
the constrained dim), and shardpy-combine-collectives packs the independent ones into
one. Now and then:
  * a gradient reads an earlier one's result (tanh of it as its `x`): a chain the
    combiner must leave apart;
  * an earlier gradient's result is read (tanh) before a later one is made: that
    reader must move after the combined reduce_scatter;
  * the upstream `g` is a new argument per gradient, or shared;
  * (1 in 3 programs that draw gradients, none with Features.bf16) gradients in
    complex numbers: x and g made complex (x + i sin x), the product's reduce_scatter
    on complex partial sums, combined with the other complex ones (its zeros, slices
    and concatenation in complex: the CPU slices rewrite once crashed building complex
    zeros), read back as real + imag.
"""
from __future__ import annotations

import random

from fuzz_text import COMPLEX, Value, ttype

PROBABILITY = 1 / 8
COMPLEX_PROBABILITY = 1 / 3  # of the programs that draw gradients


def draws(seed: int) -> bool:
    return random.Random(f"gradients {seed}").random() < PROBABILITY


def draws_complex(seed: int, bf16: bool = False) -> bool:
    """Does program `seed` (with Features.bf16 = `bf16`) draw complex gradients?"""
    return draws(seed) and not bf16 and _complex_rng(seed).random() < COMPLEX_PROBABILITY


def _complex_rng(seed: int) -> random.Random:
    # (its own RNG: the other draws stay as they were without complex gradients)
    return random.Random(f"gradients complex {seed}")


def add(fb, seed: int) -> None:
    """Append the gradients to `fb` (the @main FuncBuilder) when `seed` draws them."""
    if not draws(seed):
        return
    rng = random.Random(f"gradients body {seed}")
    axes = [(name, size) for name, size in fb.gen.mesh if size > 1]
    if not axes:
        return
    name, size = rng.choice(axes)
    batch = size * rng.choice([2, 4, 8])
    width = size * rng.choice([1, 2, 4])
    g = _arg(fb, (batch, width), name)
    # (not in bf16 programs: there is no complex<bf16>; their f64 reference agrees)
    complex_rng = _complex_rng(seed)
    complex_ok = not fb.gen.features.bf16 and complex_rng.random() < COMPLEX_PROBABILITY
    previous = None
    for _ in range(rng.randint(2, 4)):
        if previous is not None and rng.random() < 0.3:
            # a chain: x is the previous gradient (tanh), contracted over its rows
            x = _tanh(fb, previous)
            g_here = _arg(fb, (x.shape[0], width), name)
        else:
            x = _arg(fb, (batch, size * rng.choice([1, 2, 4])), name)
            g_here = g if rng.random() < 0.6 else _arg(fb, (batch, width), name)
        in_complex = complex_ok and complex_rng.random() < 0.75
        previous = _gradient(fb, rng, x, g_here, name, in_complex)
        if rng.random() < 0.3:
            _tanh(fb, previous)  # read before the next gradient is made


def _arg(fb, shape, axis: str) -> Value:
    i = len(fb.args)
    value = Value(f"%arg{i}", tuple(shape), "f32", 5.0)
    dims = ", ".join([f'{{"{axis}"}}'] + ["{}"] * (len(shape) - 1))
    fb.args.append((value, f"#sdy.sharding<@mesh, [{dims}]>"))
    fb.pool.append(value)
    return value


def _tanh(fb, v: Value) -> Value:
    fb.use(v)
    return fb.unary(v, "tanh")


def _gradient(fb, rng, x: Value, g: Value, axis: str, in_complex: bool = False) -> Value:
    """dot(x, g) over their (sharded) first dim, the result constrained to shard one of
    its dims on `axis`. `in_complex`: the product of x + i sin x and g + i sin g, read
    back as real + imag (the pool holds real values)."""
    fb.use(x, g)
    if in_complex:
        x, g = as_complex(fb, x), as_complex(fb, g)
    contracted = []
    for v in (x, g):
        ref = fb.fresh()
        dims = ", ".join([f'{{"{axis}"}}'] + ["{?}"] * (len(v.shape) - 1))
        fb.emit(f"{ref} = sdy.sharding_constraint {v.ref} <@mesh, [{dims}]> : {v.type}")
        contracted.append(Value(ref, v.shape, v.dtype, v.mag, v.exact))
    shape = (x.shape[1], g.shape[1])
    dtype = x.dtype
    dot = fb.fresh()
    fb.emit(f"{dot} = stablehlo.dot_general {contracted[0].ref}, {contracted[1].ref}, "
            f"contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : "
            f"({x.type}, {g.type}) -> {ttype(shape, dtype)}")
    fb.ops += 1
    ref = fb.fresh()
    dims = '[{"%s"}, {}]' % axis if rng.random() < 0.6 else '[{}, {"%s"}]' % axis
    fb.emit(f"{ref} = sdy.sharding_constraint {dot} <@mesh, {dims}> : "
            f"{ttype(shape, dtype)}")
    mag = x.mag * g.mag * x.shape[0]
    if dtype == COMPLEX:
        ref, mag = real_plus_imag(fb, ref, shape), 2 * mag
    value = Value(ref, shape, "f32", mag, False)
    fb.pool.append(value)
    return value


def as_complex(fb, v: Value) -> Value:
    """v + i sin(v), complex."""
    sine, ref = fb.fresh(), fb.fresh()
    fb.emit(f"{sine} = stablehlo.sine {v.ref} : {v.type}")
    fb.emit(f"{ref} = stablehlo.complex {v.ref}, {sine} : {ttype(v.shape, COMPLEX)}")
    fb.ops += 2
    # |v + i sin v| <= |v| + 1
    return Value(ref, v.shape, COMPLEX, v.mag + 1.0, False)


def real_plus_imag(fb, ref: str, shape) -> str:
    real, imag, total = fb.fresh(), fb.fresh(), fb.fresh()
    fb.emit(f"{real} = stablehlo.real {ref} : ({ttype(shape, COMPLEX)}) -> "
            f"{ttype(shape, 'f32')}")
    fb.emit(f"{imag} = stablehlo.imag {ref} : ({ttype(shape, COMPLEX)}) -> "
            f"{ttype(shape, 'f32')}")
    fb.emit(f"{total} = stablehlo.add {real}, {imag} : {ttype(shape, 'f32')}")
    fb.ops += 3
    return total
