"""shardpy.jit's executor (ir/shard_map_executor.py): a standalone program is traced,
lowered and compiled with XLA's GSPMD partitioner, once, however it is reached: the
first call, the C++ dispatch's later calls, lower().compile(). (The flag is part of
jax's jit key: reached outside it, jax would lower and compile the program again.)"""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
from jax._src import compiler  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402
from shardpy.ir import shard_map_executor  # noqa: E402


@pytest.fixture(scope="module")
def mesh():
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 CPU devices")
    return jax.make_mesh((2, 4), ("data", "model"),
                         axis_types=(jax.sharding.AxisType.Auto,) * 2)


def compiles(monkeypatch) -> list:
    """XLA compiles from here on, one entry each (their use_shardy_partitioner)."""
    made = []
    original = compiler.backend_compile_and_load

    def counted(*args, **kwargs):
        made.append(jax.config.jax_use_shardy_partitioner)
        return original(*args, **kwargs)
    monkeypatch.setattr(compiler, "backend_compile_and_load", counted)
    return made


def test_one_compile_with_gspmd_however_the_program_is_reached(mesh, monkeypatch):
    w = jax.device_put(np.arange(64, dtype=np.float32).reshape(8, 8),
                       NamedSharding(mesh, P("data", "model")))
    f = shardpy.jit(lambda w: (w @ w.T).sum(axis=0))
    expected = np.asarray(jax.jit(lambda w: (w @ w.T).sum(axis=0))(w))
    made = compiles(monkeypatch)
    for _ in range(3):
        np.testing.assert_allclose(np.asarray(f(w)), expected, rtol=1e-6)
    compiled = f.lower(w).compile()
    np.testing.assert_allclose(np.asarray(compiled(w)), expected, rtol=1e-6)
    assert made == [False]
    assert jax.config.jax_use_shardy_partitioner  # (the user's setting is left as it was)


def test_callbacks_and_traced_calls_keep_shardy(mesh, monkeypatch):
    w = jax.device_put(np.ones((8, 8), np.float32), NamedSharding(mesh, P("data")))

    def noisy(w):
        jax.debug.callback(lambda s: None, w.sum())
        return w * 2

    made = compiles(monkeypatch)
    np.testing.assert_array_equal(np.asarray(shardpy.jit(noisy)(w)), np.full((8, 8), 2.0))
    inner = shardpy.jit(lambda w: w + 1)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda w: inner(w) * 3)(w)),
                                  np.full((8, 8), 6.0))
    assert made == [True, True]
    assert shard_map_executor._compiled_by_gspmd("jitted", False, ()) == "jitted"
