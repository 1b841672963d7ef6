"""The `maximal` feature: values placed on one device (maximal shardings).

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature) declares `sdy.mesh @maximal = <[],
device_ids=[k]>` for a device k of @mesh (GSPMD's `{maximal device=k}`), and at the
end of @main places 1-3 values on device k, each one of
  * a value of the pool constrained onto device k (`sdy.sharding_constraint`);
  * an elementwise op whose result carries the maximal sharding (`sdy.sharding`);
  * a new argument of @main placed on device k;
and an op on @mesh then reads each placed value with another of the pool (an add or
a multiply of equal shapes), so that values cross from device k onto @mesh.

partition_id is not drawn: the one-device reference reads it as device 0, where an op
placed on device k reads k (test/Partition/maximal_sharding_partition_id.mlir pins it).
"""
from __future__ import annotations

import math
import random

from fuzz_text import Value

PROBABILITY = 1 / 8
MESH = "maximal"


def draws(seed: int) -> bool:
    return random.Random(f"maximal {seed}").random() < PROBABILITY


def device(gen) -> int:
    """The device the program places values on (one of @mesh's)."""
    size = math.prod(s for _, s in gen.mesh)
    return random.Random(f"maximal device {gen.seed}").randrange(size)


def declaration(gen) -> str:
    return f"  sdy.mesh @{MESH} = <[], device_ids=[{device(gen)}]>"


def add(fb, seed: int) -> bool:
    """Append the placements to `fb` (the @main FuncBuilder) when `seed` draws them;
    whether it did (the module then needs `declaration`)."""
    if not draws(seed):
        return False
    rng = random.Random(f"maximal body {seed}")
    placed_any = False
    for _ in range(rng.randint(1, 3)):
        floats = [v for v in fb.pool if v.dtype == "f32" and v.shape]
        form = rng.choice(["constraint", "op", "argument"])
        if form == "argument" or not floats:
            source = floats[-1] if floats else None
            shape = source.shape if source is not None else (rng.choice([2, 4, 8]),)
            placed = _argument(fb, shape)
        elif form == "constraint":
            placed = _constrained(fb, rng.choice(floats))
        else:
            placed = _op_placed(fb, rng.choice(floats))
        partners = [v for v in fb.pool if v.dtype == "f32" and v.shape == placed.shape
                    and v.ref != placed.ref]
        if partners:
            fb.binary(rng.choice(["add", "multiply"]), rng.choice(partners), placed)
        placed_any = True
    return placed_any


def _sharding() -> str:
    return f"<@{MESH}, []>"


def _argument(fb, shape) -> Value:
    i = len(fb.args)
    value = Value(f"%arg{i}", tuple(shape), "f32", 5.0)
    fb.args.append((value, f"#sdy.sharding<@{MESH}, []>"))
    fb.pool.append(value)
    return value


def _constrained(fb, v: Value) -> Value:
    ref = fb.fresh()
    fb.emit(f"{ref} = sdy.sharding_constraint {v.ref} {_sharding()} : {v.type}")
    fb.use(v)
    value = Value(ref, v.shape, v.dtype, v.mag, v.exact, nan=v.nan)
    fb.pool.append(value)
    return value


def _op_placed(fb, v: Value) -> Value:
    ref = fb.fresh()
    fb.emit(f"{ref} = stablehlo.tanh {v.ref} {{sdy.sharding = "
            f"#sdy.sharding_per_value<[{_sharding()}]>}} : {v.type}")
    fb.use(v)
    fb.ops += 1
    value = Value(ref, v.shape, v.dtype, 1.0, False, nan=v.nan)
    fb.pool.append(value)
    return value
