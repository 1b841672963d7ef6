"""shardpy.jit's partitions kept beside JAX's persistent compilation cache
(frontend/partition_cache.py): read back by a later jit (and a later process) instead
of partitioned again, keyed by everything a partition depends on, never read stale."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

jax = pytest.importorskip("jax")
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402
from shardpy.frontend import jit as jit_module  # noqa: E402
from shardpy.frontend import partition_cache  # noqa: E402


def megatron(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


def arrays(mesh):
    rng = np.random.default_rng(0)
    specs = (P("data", None), P(None, "model"), P("model", None))
    shapes = ((16, 32), (32, 64), (64, 32))
    return tuple(jax.device_put(rng.standard_normal(s, np.float32), NamedSharding(mesh, p))
                 for s, p in zip(shapes, specs))


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """The cache on in tmp_path (JAX's own config left alone: its cache is set up once
    per process), every partition kept however short."""
    monkeypatch.setattr(partition_cache, "_cache_directory", lambda: (tmp_path, 0.0))
    return tmp_path


def entries(directory):
    return sorted(p.name for p in directory.glob(partition_cache.PREFIX + "*"))


def counting(monkeypatch):
    calls = []
    real = jit_module.partition_module

    def partition(*args):
        calls.append(1)
        return real(*args)
    monkeypatch.setattr(jit_module, "partition_module", partition)
    return calls


def test_a_partition_is_kept_and_read_back(mesh, cache_dir, monkeypatch):
    args = arrays(mesh)
    calls = counting(monkeypatch)
    first = shardpy.jit(megatron)(*args)
    assert len(calls) == 1 and len(entries(cache_dir)) == 1
    again = shardpy.jit(megatron)(*args)  # a new jit object: nothing in memory
    assert len(calls) == 1  # read back, not partitioned again
    np.testing.assert_array_equal(np.asarray(again), np.asarray(first))
    assert again.sharding == first.sharding


def test_the_key_holds_what_a_partition_depends_on(mesh, cache_dir, monkeypatch, tmp_path):
    args = arrays(mesh)
    calls = counting(monkeypatch)
    shardpy.jit(megatron)(*args)
    jit_module.Jitted(megatron, None, None, (), (),  # another pipeline
                      pass_pipeline="builtin.module(shardpy-partition,canonicalize)")(*args)
    profile = tmp_path / "profile.json"
    profile.write_text((partition_cache.Path(partition_cache.__file__).parents[1] / "sharding"
                        / "profiles" / "cpu.json").read_text())
    monkeypatch.setenv("SHARDPY_COST_PROFILE", str(profile))
    shardpy.jit(megatron)(*args)  # another profile
    monkeypatch.setattr(partition_cache, "_SOURCE_DIGEST", ["other shardpy code"])
    shardpy.jit(megatron)(*args)  # other code
    assert len(calls) == 4 and len(entries(cache_dir)) == 4
    base = partition_cache.cache_key("module", "pipeline")
    profile.write_text(profile.read_text().replace('"cpu"', '"cpu" '))
    assert partition_cache.cache_key("module", "pipeline") != base  # the profile's text


def test_an_unreadable_entry_is_made_again(mesh, cache_dir, monkeypatch):
    args = arrays(mesh)
    calls = counting(monkeypatch)
    shardpy.jit(megatron)(*args)
    entry, = cache_dir.glob(partition_cache.PREFIX + "*")
    entry.write_bytes(entry.read_bytes()[:40])  # truncated
    out = shardpy.jit(megatron)(*args)
    assert len(calls) == 2 and entry.stat().st_size > 40  # written anew
    np.testing.assert_allclose(np.asarray(out), np.asarray(jax.jit(megatron)(*args)),
                               rtol=1e-5, atol=1e-4)


def test_off_without_jax_cache_dir_and_below_the_minimum_time(mesh, tmp_path, monkeypatch):
    args = arrays(mesh)
    monkeypatch.setattr(partition_cache, "_cache_directory", lambda: (None, 0.0))
    shardpy.jit(megatron)(*args)
    monkeypatch.setattr(partition_cache, "_cache_directory", lambda: (tmp_path, 1e9))
    shardpy.jit(megatron)(*args)
    assert entries(tmp_path) == []


def test_the_directory_is_jaxs():
    config = jax.config
    before = (config.jax_compilation_cache_dir,
              config.jax_persistent_cache_min_compile_time_secs)
    try:
        config.update("jax_compilation_cache_dir", "/some/where")
        config.update("jax_persistent_cache_min_compile_time_secs", 2.5)
        assert partition_cache._cache_directory() == (partition_cache.Path("/some/where"),
                                                      2.5)
        config.update("jax_compilation_cache_dir", None)
        assert partition_cache._cache_directory() == (None, 0.0)
    finally:
        config.update("jax_compilation_cache_dir", before[0])
        config.update("jax_persistent_cache_min_compile_time_secs", before[1])


PROCESS = textwrap.dedent("""
    import sys
    import jax, numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P
    import shardpy
    from shardpy.frontend import jit as jit_module
    jax.config.update("jax_compilation_cache_dir", sys.argv[1])
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    calls = []
    real = jit_module.partition_module
    jit_module.partition_module = lambda *a: calls.append(1) or real(*a)
    mesh = jax.make_mesh((2, 4), ("data", "model"))
    x = jax.device_put(np.arange(16 * 32, dtype=np.float32).reshape(16, 32),
                       NamedSharding(mesh, P("data", None)))
    w = jax.device_put(np.ones((32, 64), np.float32), NamedSharding(mesh, P(None, "model")))
    out = shardpy.jit(lambda x, w: (x @ w).sum(1))(x, w)
    print(len(calls), float(np.asarray(out).sum()))
""")


def test_a_later_process_reads_what_an_earlier_kept(tmp_path):
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8",
               JAX_PLATFORMS="cpu")
    runs = [subprocess.run([sys.executable, "-c", PROCESS, str(tmp_path)], env=env,
                           capture_output=True, text=True, timeout=300) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    (first_calls, first_sum), (second_calls, second_sum) = (
        run.stdout.split() for run in runs)
    assert (first_calls, second_calls) == ("1", "0") and first_sum == second_sum
    assert entries(tmp_path)


def test_locations_are_not_part_of_the_key(mesh, cache_dir, monkeypatch):
    """An edit above the jitted function moves every line number: the partition (which
    does not depend on them) is still read back, as JAX reads back its compile."""
    args = arrays(mesh)
    calls = counting(monkeypatch)
    first = megatron

    def megatron_here(x, w1, w2):  # the same program, other source lines
        return jax.nn.relu(x @ w1) @ w2
    megatron_here.__name__ = first.__name__  # (JAX names the module after it)
    shardpy.jit(first)(*args)
    shardpy.jit(megatron_here)(*args)
    assert len(calls) == 1
