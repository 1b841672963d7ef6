"""Python callbacks in shardpy.jit (jax.debug.print and callback, pure_callback,
io_callback): called as often as under jax.jit, with the same arguments, and their
results used like any value.

Before, a callback at the top level crashed the process (the per-device module's call
named a callback index the executor's lowering never registered: a segfault), and one
inside shard_map failed in shardpy-to-local (its call has no result but a sharding).
"""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import io_callback  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402


class Calls:
    """A callback that records its arguments (host arrays), and returns `result(args)`."""

    def __init__(self, result=None):
        self.seen: list = []
        self.result = result

    def __call__(self, *args):
        self.seen.append([np.asarray(a) for a in args])
        return None if self.result is None else self.result(*args)

    def take(self) -> list:
        seen, self.seen = self.seen, []
        return seen


def both(fun, *args, calls: Calls):
    """(jax.jit's outputs, its calls, shardpy.jit's outputs, its calls); effects
    awaited."""
    out = {}
    for side, jit in (("jax", jax.jit), ("shardpy", shardpy.jit)):
        result = jit(fun)(*args)
        jax.block_until_ready(result)
        jax.effects_barrier()
        out[side] = (result, calls.take())
    return out["jax"] + out["shardpy"]


def assert_same_outputs(theirs, ours):
    for t, o in zip(jax.tree_util.tree_leaves(theirs), jax.tree_util.tree_leaves(ours),
                    strict=True):
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-5, atol=1e-5)
        assert o.sharding == t.sharding


def assert_same_calls(theirs, ours):
    """As many calls, the same arguments (floats to rounding: a sum's order differs)."""
    assert len(ours) == len(theirs)
    key = lambda args: [a.tobytes() if a.dtype.kind in "iub" else np.round(a, 3).tobytes()
                        for a in args]
    for t, o in zip(sorted(theirs, key=key), sorted(ours, key=key)):
        for a, b in zip(t, o, strict=True):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)


@pytest.fixture()
def x(mesh):
    data = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    return jax.device_put(data, NamedSharding(mesh, P("data", "model")))


def test_debug_callback_called_once(x):
    calls = Calls()

    def f(v):
        jax.debug.callback(calls, v.sum(0), v[0, 0])
        return v * 2

    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert len(their_calls) == 1  # JAX places it on device 0: one call, not one per device
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


def test_debug_print_prints_once(x, capfd):
    def f(v):
        jax.debug.print("total={t:.2f}", t=v.sum())
        return v + 1

    for jit in (jax.jit, shardpy.jit):
        jax.block_until_ready(jit(f)(x))
        jax.effects_barrier()
    printed = [line for line in capfd.readouterr().out.splitlines() if "total=" in line]
    assert len(printed) == 2 and printed[0] == printed[1]


@pytest.mark.parametrize("kind", ["pure", "io"])
def test_callback_results_feed_sharded_compute(x, kind):
    """A callback's result (on device 0) is read by ops on the whole mesh: every device
    gets device 0's value."""
    calls = Calls(lambda a: (np.sin(a) * 3).astype(np.float32))
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)

    def f(v):
        y = (jax.pure_callback(calls, shape, v) if kind == "pure"
             else io_callback(calls, shape, v))
        return y @ v.T, y

    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert len(their_calls) == 1
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


def test_callback_results_of_several_types(x):
    calls = Calls(lambda a: (a > 0, (a * 10).astype(np.int32), np.float32(a.sum())))
    shapes = (jax.ShapeDtypeStruct(x.shape, jnp.bool_),
              jax.ShapeDtypeStruct(x.shape, jnp.int32), jax.ShapeDtypeStruct((), jnp.float32))

    def f(v):
        positive, scaled, total = jax.pure_callback(calls, shapes, v)
        return positive.sum(), scaled * 2, total + v

    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


def test_callback_in_shard_map_runs_on_every_device(mesh, x):
    calls = Calls()

    def body(block):
        jax.debug.callback(calls, block.sum())
        return block * 2

    f = jax.shard_map(body, mesh=mesh, in_specs=P("data", "model"),
                      out_specs=P("data", "model"))
    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert len(their_calls) == 8
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


@pytest.mark.parametrize("loop", ["scan", "while", "cond"])
def test_callback_in_control_flow(x, loop):
    calls = Calls()

    def f(v):
        if loop == "scan":
            def step(carry, row):
                jax.debug.callback(calls, row.sum())
                return carry + row, row * 2
            return lax.scan(step, jnp.zeros(v.shape[1]), v)
        if loop == "while":
            def body(c):
                jax.debug.callback(calls, c[0])
                return c[0] + 1, c[1] * 0.5
            return lax.while_loop(lambda c: c[0] < 3, body, (0, v))[1]

        def yes(w):
            jax.debug.callback(calls, w.max())
            return w * 2
        return lax.cond(v.sum() > -1e3, yes, lambda w: w, v)

    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert len(their_calls) == {"scan": 8, "while": 3, "cond": 1}[loop]
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


def test_callback_in_gradient(x):
    calls = Calls()

    def loss(w):
        y = jnp.tanh(x @ w)
        jax.debug.callback(calls, y.sum())
        return (y ** 2).sum()

    w = jnp.ones((16, 4), jnp.float32)
    theirs, their_calls, ours, our_calls = both(jax.grad(loss), w, calls=calls)
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


def test_lowered_and_compiled_run_callbacks(x):
    calls = Calls()

    def f(v):
        jax.debug.callback(calls, v.sum())
        return v - 1

    compiled = shardpy.jit(f).lower(x).compile()
    jax.block_until_ready(compiled(x))
    jax.effects_barrier()
    assert len(calls.take()) == 1


@pytest.mark.parametrize("where", ["top", "scan", "shard_map"])
def test_ordered_io_callbacks(mesh, x, where):
    """io_callback(..., ordered=True): JAX threads a token through @main; the executor
    passes JAX's token through the per-device program, and the calls come in program
    order, once each (on device 0; inside shard_map, on every device). They were refused
    ("ordered effects are not supported yet")."""
    calls = Calls(lambda v: np.float32(np.asarray(v).sum() * 2))
    scalar = jax.ShapeDtypeStruct((), jnp.float32)

    def f(v):
        if where == "shard_map":
            def body(block):
                return block * io_callback(calls, scalar, block.sum(), ordered=True)
            return jax.shard_map(body, mesh=mesh, in_specs=P("data", "model"),
                                 out_specs=P("data", "model"))(v)
        if where == "scan":
            def step(carry, row):
                return carry + io_callback(calls, scalar, row.sum(), ordered=True), None
            return jax.lax.scan(step, jnp.float32(0), v)[0]
        first = io_callback(calls, scalar, v.sum(), ordered=True)
        second = io_callback(calls, scalar, v.max(), ordered=True)
        return v * first + second

    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert len(their_calls) == {"top": 2, "scan": 8, "shard_map": 8}[where]
    if where != "shard_map":  # (devices run their blocks' calls in any order)
        assert [c[0].item() for c in our_calls] == pytest.approx(
            [c[0].item() for c in their_calls], rel=1e-5)
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)


def test_ordered_io_callbacks_keep_their_order_across_calls(x):
    seen = []

    def record(v):
        seen.append(int(v))
        return np.int32(v)

    f = shardpy.jit(lambda v, i: v * io_callback(record, jax.ShapeDtypeStruct((), jnp.int32),
                                                  i, ordered=True))
    outs = [f(x, jnp.int32(i)) for i in range(6)]
    jax.block_until_ready(outs)
    jax.effects_barrier()
    assert seen == list(range(6))


SPECS = [P(), P("data"), P("model"), P("data", "model"), P("model", "data"),
         P(("data", "model")), P(None, "model"), P(None, ("model", "data"))]


@pytest.mark.parametrize("seed", range(24))
def test_random_callback_programs(mesh, seed):
    """Drawn programs: an input on a drawn layout, a pure/io/ordered io/debug callback at the top,
    in a scan or in a cond, its results (f32, i32 or bool) read by a drawn op on the
    mesh; the same outputs, shardings and calls as jax.jit's."""
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((8, 16)).astype(np.float32)
    x = jax.device_put(data, NamedSharding(mesh, SPECS[rng.integers(len(SPECS))]))
    kind = ("pure", "io", "debug", "ordered")[rng.integers(4)]
    where = ("top", "scan", "cond")[rng.integers(3)]
    dtype = (np.float32, np.int32, np.bool_)[rng.integers(3)]
    reader = ("matmul", "add", "sum", "where")[rng.integers(4)]
    row_only = rng.random() < 0.5  # the callback reads a row, or the whole value
    calls = Calls(lambda a: (np.cos(a) * 4).astype(dtype))

    def call(v, whole=False):
        v = v[0] if row_only and not whole else v
        if kind == "debug":
            jax.debug.callback(calls, v)
            return v
        shape = jax.ShapeDtypeStruct(v.shape, dtype)
        return (jax.pure_callback(calls, shape, v) if kind == "pure"
                else io_callback(calls, shape, v, ordered=kind == "ordered"))

    def read(v, y):  # (v's shape back)
        y = y.astype(jnp.float32)
        if reader == "matmul":
            return jnp.tanh(v @ (y.T @ y if y.ndim == 2 else jnp.outer(y, y)))
        if reader == "add":
            return v + y
        if reader == "sum":
            return v * (v * y).sum(0)
        return jnp.where(y > 0, v, -v)

    def f(v):
        if where == "top":
            return read(v, call(v))
        if where == "scan":
            def step(carry, row):
                return carry + read(row, call(row, whole=True)), None
            return lax.scan(step, jnp.zeros(v.shape[1]), v)[0]
        return lax.cond(v.sum() > -1e3, lambda w: read(w, call(w)), lambda w: w * 1.0, v)

    theirs, their_calls, ours, our_calls = both(f, x, calls=calls)
    assert_same_calls(their_calls, our_calls)
    assert_same_outputs(theirs, ours)
