"""lax.scan's own form of a loop over stacked inputs: the stacked value enters the
while as a carry that the body returns unchanged, and each step slices it at the
counter (xs[i]: a dynamic_slice of size 1 on dim 0 and a reshape dropping that dim, as
jax lowers it). XLA hoists a reshard of such a carry out of the loop, and shardpy's
plan costs count it once, not once per trip (choice_calls.hoisted_trips;
test/Regressions/scan_inputs_gathered_once_not_per_step.mlir). Its own RNG: programs
that do not draw it stay the same.
"""
from __future__ import annotations

import random

from fuzz_text import Value, int_list, ttype

PROBABILITY = 0.3  # of a while loop


def stacked(fb, carries: list[Value]) -> Value | None:
    """A pool value to carry through the loop unchanged and slice per step (dim 0 of 2
    or more), or None: not drawn, or none fits."""
    gen = fb.gen
    if not gen.features.scan_inputs:
        return None
    rng = getattr(gen, "scan_inputs_rng", None)
    if rng is None:
        rng = gen.scan_inputs_rng = random.Random(f"scan inputs {gen.seed}")
    if rng.random() >= PROBABILITY:
        return None
    xs = fb.pick(lambda v: len(v.shape) >= 1 and v.shape[0] >= 2 and fb.indexable(v)
                 and v not in carries)
    return None if xs is None else fb.tame(xs)


def step(body, xs: Value, counter: Value) -> Value:
    """xs[counter] in the loop body `body` (a region builder): the step's input."""
    starts = [body.index_scalar(xs.shape[0] - 1, counter)]
    starts += [body.scalar_const(0, "i32") for _ in xs.shape[1:]]
    sizes = [1, *xs.shape[1:]]
    sliced = body.fresh()
    body.emit(f"{sliced} = stablehlo.dynamic_slice {xs.ref}, "
              f"{', '.join(s.ref for s in starts)}, sizes = {int_list(sizes)} : ({xs.type}, "
              f"{', '.join(s.type for s in starts)}) -> {ttype(sizes, xs.dtype)}")
    ref = body.fresh()
    body.emit(f"{ref} = stablehlo.reshape {sliced} : ({ttype(sizes, xs.dtype)}) -> "
              f"{ttype(xs.shape[1:], xs.dtype)}")
    body.use(xs, *starts)
    body.ops += 2
    return body.add(Value(ref, tuple(xs.shape[1:]), xs.dtype, xs.mag, xs.exact, sliced=True))
