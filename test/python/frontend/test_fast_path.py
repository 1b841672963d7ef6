"""shardpy.jit's repeat calls through jax.jit's C++ dispatch (frontend/fast_path.py):
a signature seen once runs without the Python path, with the same results as the
Python path and as jax.jit; whatever the C++ cannot run alone keeps the Python path."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402


def named(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


def counted(monkeypatch, jitted) -> list:
    """Calls of `jitted`'s Python path, one entry each."""
    calls = []
    python_path = jitted._call

    def call(*args, **kwargs):
        calls.append(args)
        return python_path(*args, **kwargs)
    monkeypatch.setattr(jitted, "_call", call)
    return calls


def step(params, x):
    y = jnp.tanh(x @ params["w"]) * params["b"]
    return y.sum(axis=1), {"w": params["w"] * 0.5, "b": params["b"] + 1}


def inputs(mesh, seed=0, x_spec=("data", None)):
    rng = np.random.default_rng(seed)
    params = {"w": jax.device_put(rng.standard_normal((32, 64), np.float32),
                                  named(mesh, None, "model")),
              "b": jax.device_put(rng.standard_normal((64,), np.float32), named(mesh, "model"))}
    x = jax.device_put(rng.standard_normal((16, 32), np.float32), named(mesh, *x_spec))
    return params, x


def check(ours, theirs):
    for a, b in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)
        assert a.sharding == b.sharding
    assert jax.tree_util.tree_structure(ours) == jax.tree_util.tree_structure(theirs)


def test_repeat_calls_skip_the_python_path(mesh, monkeypatch):
    f = shardpy.jit(step)
    calls = counted(monkeypatch, f)
    for seed in range(4):  # new values, the same signature
        params, x = inputs(mesh, seed)
        check(f(params, x), jax.jit(step)(params, x))
    assert len(calls) == 1


def test_a_new_signature_partitions_again(mesh, monkeypatch):
    f = shardpy.jit(step)
    calls = counted(monkeypatch, f)
    for x_spec in (("data", None), (None, "model"), ("data", None), (None, "model")):
        params, x = inputs(mesh, x_spec=x_spec)
        check(f(params, x), jax.jit(step)(params, x))
    assert len(calls) == 2
    assert len(f._cache) == 2


def test_host_arrays_and_scalars(mesh, monkeypatch):
    f = shardpy.jit(lambda x, s: x * s + 1)
    calls = counted(monkeypatch, f)
    x = jax.device_put(np.arange(32, dtype=np.float32).reshape(8, 4), named(mesh, "data"))
    for s in (2.0, 3.0):  # a Python float: one signature
        check(f(x, s), jax.jit(lambda x, s: x * s + 1)(x, s))
        check(f(np.asarray(x), s), jax.jit(lambda x, s: x * s + 1)(np.asarray(x), s))
    assert len(calls) == 2  # a jax.Array, a numpy array


def test_static_arguments_by_position_and_name(mesh, monkeypatch):
    def scale(x, n, *, k=2):
        return x * n + k

    f = shardpy.jit(scale, static_argnums=1, static_argnames="k")
    calls = counted(monkeypatch, f)
    x = jax.device_put(np.ones((8, 4), np.float32), named(mesh, "data"))
    for n, k in ((2, 2), (3, 2), (2, 5), (2, 2)):
        np.testing.assert_allclose(np.asarray(f(x, n, k=k)), np.ones((8, 4)) * n + k)
    np.testing.assert_allclose(np.asarray(f(x, n=4)), np.ones((8, 4)) * 4 + 2)
    assert len(calls) == 4  # (2,2) twice: once


def test_keyword_arguments_and_defaults_give_the_same_results(mesh):
    def affine(x, w, b=None, *, shift):
        out = x @ w + shift
        return out if b is None else out + b

    f, g = shardpy.jit(affine), jax.jit(affine)
    x = jax.device_put(np.ones((8, 16), np.float32), named(mesh, "data"))
    w = jax.device_put(np.full((16, 4), 0.5, np.float32), named(mesh, None, "model"))
    b = jnp.arange(4, dtype=np.float32)
    shift = jnp.float32(1.5)
    for _ in range(2):  # the second round on whatever path each form takes
        check(f(x, w, shift=shift), g(x, w, shift=shift))
        check(f(x, w, b, shift=shift), g(x, w, b, shift=shift))
        check(f(w=w, x=x, b=b, shift=shift), g(w=w, x=x, b=b, shift=shift))


def test_donated_arguments_are_consumed_on_every_call(mesh, monkeypatch):
    f = shardpy.jit(step, donate_argnums=0)
    calls = counted(monkeypatch, f)
    params, x = inputs(mesh)
    expected = jax.tree_util.tree_map(jnp.copy, params)
    for _ in range(3):
        old = params
        loss, params = f(params, x)
        assert all(leaf.is_deleted() for leaf in jax.tree_util.tree_leaves(old))
        expected_loss, expected = jax.jit(step)(expected, x)
        check((loss, params), (expected_loss, expected))
    assert len(calls) == 1
    # (Not called again with `old`: jax.jit of jaxlib 0.10.2 crashes the process when a
    # donated array comes back on 8 CPU devices, and so did shardpy's Python path.)


def test_clear_cache_forgets_the_dispatch_too(mesh, monkeypatch):
    f = shardpy.jit(step)
    calls = counted(monkeypatch, f)
    params, x = inputs(mesh)
    f(params, x)
    f.clear_cache()
    check(f(params, x), jax.jit(step)(params, x))
    f(params, x)
    assert len(calls) == 2


def test_typed_keys_keep_the_python_path(mesh, monkeypatch):
    def noisy(key, x):
        key, sub = jax.random.split(key)
        return key, x + jax.random.normal(sub, x.shape)

    f = shardpy.jit(noisy)
    calls = counted(monkeypatch, f)
    x = jax.device_put(np.zeros((8, 4), np.float32), named(mesh, "data"))
    key = jax.random.key(0)
    for _ in range(2):
        (key_ours, y_ours), (key_jax, y_jax) = f(key, x), jax.jit(noisy)(key, x)
        np.testing.assert_array_equal(np.asarray(y_ours), np.asarray(y_jax))
        key = key_ours
        assert jax.random.key_data(key_ours).tolist() == jax.random.key_data(key_jax).tolist()
    assert len(calls) == 2


def test_zero_element_arguments_on_the_fast_path(mesh, monkeypatch):
    f = shardpy.jit(lambda x, e: (x * 2, e + 1))
    calls = counted(monkeypatch, f)
    x = jax.device_put(np.ones((8, 4), np.float32), named(mesh, "data"))
    e = jax.device_put(np.ones((0, 4), np.float32), named(mesh, "data"))
    for _ in range(3):
        y, e1 = f(x, e)
        np.testing.assert_array_equal(np.asarray(y), np.full((8, 4), 2.0))
        assert e1.shape == (0, 4)
    assert len(calls) == 1


def test_inside_an_outer_jit_and_without_jit(mesh):
    f = shardpy.jit(step)
    params, x = inputs(mesh)
    expected = jax.jit(step)(params, x)
    f(params, x)
    check(jax.jit(lambda p, x: f(p, x))(params, x), expected)
    with jax.disable_jit():
        got = f(params, x)
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)


def test_an_error_on_a_miss_is_raised_again_on_the_next_call(mesh):
    f = shardpy.jit(lambda x, y: x @ y)
    x = jax.device_put(np.ones((8, 4), np.float32), named(mesh, "data"))
    for _ in range(2):  # (the C++ keeps no entry for a signature whose miss raised)
        with pytest.raises(TypeError, match="dot_general"):
            f(x, x)
    np.testing.assert_array_equal(np.asarray(f(x, x.T)), np.full((8, 8), 4.0))


def test_an_uncommitted_donated_argument_is_placed_on_the_fast_path_too(mesh, monkeypatch):
    def count_step(state, x):  # optax's step count is made outside any jit: uncommitted
        return {"w": state["w"] * 2, "count": state["count"] + 1}, x.sum()

    f = shardpy.jit(count_step, donate_argnums=0)
    calls = counted(monkeypatch, f)
    x = jax.device_put(np.ones((8, 4), np.float32), named(mesh, "data"))
    for k in range(3):  # fresh arguments each call: the count arrives uncommitted
        state = {"w": jax.device_put(np.full((8, 4), k, np.float32), named(mesh, "data")),
                 "count": jnp.asarray(k, np.int32)}
        assert not state["count"].committed
        expected = jax.jit(count_step)(jax.tree_util.tree_map(jnp.copy, state), x)
        got = f(state, x)
        assert state["w"].is_deleted()
        check(got, expected)
    assert len(calls) == 1


def test_unused_arguments_are_dropped_on_the_fast_path_too(mesh, monkeypatch):
    def f(a, unused, b):
        return a * 2 + b

    x = jax.device_put(np.arange(32, dtype=np.float32).reshape(8, 4), named(mesh, "data"))
    y = jax.device_put(np.ones((8, 4), np.float32), named(mesh, None, "model"))
    for keep_unused in (False, True):
        ours = shardpy.jit(f, keep_unused=keep_unused)
        calls = counted(monkeypatch, ours)
        for k in range(3):
            check(ours(x + k, y, y), jax.jit(f, keep_unused=keep_unused)(x + k, y, y))
        assert len(calls) == 1
