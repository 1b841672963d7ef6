#!/usr/bin/env python3
"""Regenerate the JAX-lowered inputs of the partition tests in this directory.

    python test/Partition/Inputs/generate.py          # rewrite them
    python test/Partition/Inputs/generate.py --check  # exit 1 if one is stale

Each file is `jax.jit(f, ...).lower(...).as_text()` with JAX 0.10.2 on 8 CPU devices,
from abstract inputs, without debug info, as examples/generate.py does.
"""
import argparse
import pathlib
import sys
from functools import partial

import jax

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
MESH = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)


def S(*spec):
    return NamedSharding(MESH, P(*spec))


def arg(shape, *spec, dtype=jnp.float32):
    return jax.ShapeDtypeStruct(shape, dtype, sharding=S(*spec))


def while_sharded_carries():
    """fori_loop: h = tanh(h @ w + b) three times, a row sum accumulated; h rows on
    "x", columns and w's columns on "y"."""
    def loop(h, w, b):
        def body(i, carry):
            h, acc = carry
            h = jnp.tanh(h @ w + b)
            return h, acc + h.sum(axis=1)
        return jax.lax.fori_loop(0, 3, body, (h, jnp.zeros(h.shape[0])))
    return jax.jit(loop, out_shardings=(S("x", "y"), S("x"))).lower(
        arg((16, 32), "x", "y"), arg((32, 32), None, "y"), arg((32,), "y"))


def cond_switch_barrier():
    """lax.cond and lax.switch (stablehlo.case) on sharded values, and an
    optimization_barrier over two of them."""
    def f(p, i, x, y):
        a = jax.lax.cond(p > 0, lambda: jnp.sin(x) * y, lambda: x - y)
        b = jax.lax.switch(i, [lambda v: v * 2, lambda v: jnp.exp(v), lambda v: v + 1], x)
        c, d = jax.lax.optimization_barrier((a * 2, b + 1))
        return c + d
    return jax.jit(f, out_shardings=S("x", "y")).lower(
        jax.ShapeDtypeStruct((), jnp.float32), jax.ShapeDtypeStruct((), jnp.int32),
        arg((16, 32), "x", "y"), arg((16, 32), "x", "y"))


def cholesky_batched():
    """jnp.linalg.cholesky on CPU: a LAPACK custom call JAX gives an sdy.sharding_rule
    (batch dim free, matrix dims in the kernel)."""
    def f(a):
        return jnp.linalg.cholesky(a @ a.transpose(0, 2, 1) + 4 * jnp.eye(4))
    return jax.jit(f, out_shardings=S("x")).lower(arg((8, 4, 4), "x"))


def approx_top_k_sharded_dim():
    """approx_max_k along a sharded dim, approx_min_k of the transpose."""
    def f(a):
        return jax.lax.approx_max_k(a, 4), jax.lax.approx_min_k(a.T, 2)
    return jax.jit(f).lower(arg((16, 64), "x", "y"))


def shard_map_full():
    """A fully manual shard_map with psum, all_gather, ppermute and all_to_all."""
    def f(a, b):
        @partial(jax.shard_map, mesh=MESH, in_specs=(P("x", "y"), P("y")),
                 out_specs=(P("x", None), P(None, "y"), P("x", "y")), check_vma=False)
        def body(a, b):
            s = jax.lax.psum(a * b, "y")
            g = jax.lax.all_gather(a, "y", axis=1, tiled=True)
            p = jax.lax.ppermute(a, "x", [(0, 1), (1, 0)])
            t = jax.lax.all_to_all(a, "y", 0, 1, tiled=True)
            return g + jnp.sum(s), jax.lax.psum(t, "x"), p
        return body(jnp.sin(a), b)
    return jax.jit(f).lower(arg((8, 16), "x", "y"), arg((16,), "y"))


def shard_map_partial():
    """A shard_map manual over "x" only: inside, "y" is free and shards the body
    (a sharding constraint asks for it); a pmean over "x"."""
    def f(a, w):
        @partial(jax.shard_map, mesh=MESH, in_specs=(P("x"), P()), out_specs=P("x"),
                 axis_names={"x"})
        def body(a, w):
            h = jnp.tanh(a @ w)
            h = jax.lax.with_sharding_constraint(h, P(None, "y"))
            return h - jax.lax.pmean(jnp.mean(h, axis=0, keepdims=True), "x")
        return body(a, w) * 2
    return jax.jit(f, out_shardings=S("x", "y")).lower(arg((16, 32), "x"),
                                                       arg((32, 64), None, "y"))


MODULES = [while_sharded_carries, cond_switch_barrier, cholesky_batched,
           approx_top_k_sharded_dim, shard_map_full, shard_map_partial]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for make in MODULES:
        path = HERE / f"{make.__name__}.mlir"
        text = make().as_text()
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        print("stale: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
