#!/usr/bin/env python3
"""Per-call time of shardpy.jit against jax.jit on small programs (issue 14 item 2, issue 15).

    python bench/dispatch.py                       # 2, 10, 40 and 120 leaves, 25 rounds
    python bench/dispatch.py --leaves 40 --rounds 50 --calls 400 --json dispatch.json

On programs of a few hundred microseconds the per-call overhead of the jit is part of
the step. Each program takes a dict of `leaves` parameter vectors sharded over "model"
and a batch sharded over ("data", "model") on the (2, 4) mesh of 8 CPU host devices,
scales the batch by every vector, sums its rows (an all_reduce over "model") and returns
the sums and the parameters: as many output leaves as input ones, as a train step has.

Measured per program: the wall clock of `--calls` calls in a loop, each awaited with
jax.block_until_ready (an unawaited loop of ~10^4 calls with collectives aborts
XLA:CPU's rendezvous on a 2-core host, under jax.jit too), divided by the count; jax.jit
and shardpy.jit alternate round by round (--rounds); the medians and their ratio, and
how many calls took shardpy.jit's Python path (after the first: 0 where the C++
dispatch runs them; frontend/fast_path.py).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SHARDPY_PYTHON", str(ROOT / "python")))


def program(mesh, leaves: int):
    import jax
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P

    rng = np.random.default_rng(0)
    params = {f"w{i:03d}": jax.device_put(rng.standard_normal(128).astype(np.float32),
                                          NamedSharding(mesh, P("model")))
              for i in range(max(leaves - 1, 1))}
    x = jax.device_put(rng.standard_normal((64, 128)).astype(np.float32),
                       NamedSharding(mesh, P("data", "model")))

    def step(params, x):
        y = x
        for w in params.values():
            y = y * w
        return y.sum(axis=1), params
    return step, (params, x)


def measure(leaves: int, rounds: int, calls: int) -> dict:
    import jax
    import shardpy

    mesh = jax.make_mesh((2, 4), ("data", "model"))
    step, args = program(mesh, leaves)
    sides = {"jax": jax.jit(step), "shardpy": shardpy.jit(step)}
    for f in sides.values():
        jax.block_until_ready(f(*args))
    python_path = []
    ours = sides["shardpy"]
    original = getattr(ours, "_call", None)  # (None: a shardpy before the C++ dispatch)

    def counted(*a, **k):
        python_path.append(1)
        return original(*a, **k)
    if original is not None:
        ours._call = counted
    times = {side: [] for side in sides}
    for _ in range(rounds):
        for side, f in sides.items():
            start = time.perf_counter()
            for _ in range(calls):
                jax.block_until_ready(f(*args))
            times[side].append((time.perf_counter() - start) / calls * 1e6)
    medians = {side: statistics.median(t) for side, t in times.items()}
    return {"leaves": len(jax.tree_util.tree_leaves(args)), "us_per_call": medians,
            "ratio": medians["shardpy"] / medians["jax"],
            "python_path_calls": len(python_path) if original is not None else None,
            "calls": rounds * calls,
            "times_us": times}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, nargs="+", default=[2, 10, 40, 120])
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--json", type=pathlib.Path)
    args = parser.parse_args(argv)
    os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    rows = [measure(n, args.rounds, args.calls) for n in args.leaves]
    print("| leaves | jax.jit us/call | shardpy.jit us/call | ratio | Python-path calls |")
    print("|---:|---:|---:|---:|---:|")
    for row in rows:
        us = row["us_per_call"]
        print(f"| {row['leaves']} | {us['jax']:.1f} | {us['shardpy']:.1f} | "
              f"{row['ratio']:.3f}× | {row['python_path_calls'] if row['python_path_calls'] is not None else 'all'} of {row['calls']} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
