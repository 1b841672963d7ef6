"""The `groups` feature: sharding groups (jax.shard_alike) over values of the pool.

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature) puts, at the end of @main, two or three
values of one shape and type into `sdy.sharding_group ... group_id = 0`. Each member is
first constrained to a sharding of its own half the time, so members often arrive
with different shardings: Shardy's sync then warns and gives every member an open
constraint (python/shardpy/propagation/groups.py), and the partitioner reshards
between the members and their constraints. Without constraints the group only ties
the members' propagated shardings together.
"""
from __future__ import annotations

import random

from fuzz_text import Value

PROBABILITY = 1 / 8


def draws(seed: int) -> bool:
    return random.Random(f"groups {seed}").random() < PROBABILITY


def add(fb, seed: int) -> bool:
    """Append the group to `fb` (the @main FuncBuilder) when `seed` draws it; whether
    it did."""
    if not draws(seed):
        return False
    rng = random.Random(f"groups body {seed}")
    by_type: dict[str, list[Value]] = {}
    for v in fb.pool:
        if v.shape and all(v.shape):
            by_type.setdefault(v.type, []).append(v)
    choices = [vs for vs in by_type.values() if len(vs) >= 2]
    if not choices:
        return False
    values = rng.choice(choices)
    members = rng.sample(values, min(len(values), rng.choice([2, 3])))
    shardings = fb.gen.shardings
    saved, shardings.rng = shardings.rng, rng  # (the program's own draws stay as they are)
    try:
        for i, v in enumerate(members):
            if rng.random() < 0.5:
                ref = fb.fresh()
                fb.emit(f"{ref} = sdy.sharding_constraint {v.ref} "
                        f"{shardings.random(v.shape, allow_open=False)} : {v.type}")
                fb.use(v)
                members[i] = Value(ref, v.shape, v.dtype, v.mag, v.exact, nan=v.nan)
                fb.pool.append(members[i])
    finally:
        shardings.rng = saved
    for v in members:
        fb.emit(f"sdy.sharding_group {v.ref} group_id = 0 : {v.type}")
        fb.use(v)
    return True
