"""shardpy.jit(f).lower(*args).explain() (issue 18): every collective of the per-device
program with the line of the user's code that needed it."""
from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import shardpy


@pytest.fixture(scope="module")
def mesh():
    return jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def megatron_mlp(x, w1, w2):
    h = jax.nn.relu(x @ w1)
    return h @ w2  # SECOND MATMUL: partial sums over "model", all-reduced


def test_the_all_reduce_names_the_second_matmul(mesh, capsys):
    x = jax.device_put(np.ones((16, 32), np.float32), NamedSharding(mesh, P("data", None)))
    w1 = jax.device_put(np.ones((32, 64), np.float32), NamedSharding(mesh, P(None, "model")))
    w2 = jax.device_put(np.ones((64, 32), np.float32), NamedSharding(mesh, P("model", None)))
    f = shardpy.jit(megatron_mlp, out_shardings=NamedSharding(mesh, P("data", None)))
    records = f.lower(x, w1, w2).explain()
    lines, start = inspect.getsourcelines(megatron_mlp)
    second = start + next(i for i, text in enumerate(lines) if "SECOND MATMUL" in text)
    reduces = [r for r in records if r.kind == "all_reduce"]
    assert len(reduces) == 1, [r.to_json() for r in records]
    record = reduces[0]
    assert record.loc.startswith(f"{__file__}:{second}:"), record.loc
    assert record.op == "stablehlo.dot_general" and record.why == "result"
    assert record.axes == ["model"] and record.group_size == 4
    assert record.bytes > 0 and record.seconds is not None and record.seconds > 0
    assert 'unreduced={"model"}' in record.from_sharding
    assert "unreduced" not in record.to_sharding
    json = record.to_json()
    for key in ("kind", "bytes", "op", "loc", "from_sharding", "to_sharding", "origin",
                "alternatives"):
        assert key in json
    table = capsys.readouterr().out
    assert "all_reduce" in table and f"{__file__}:{second}:" in table
    # The program itself is the same, explained or not.
    assert np.allclose(np.asarray(f(x, w1, w2)), np.asarray(megatron_mlp(x, w1, w2)))


def test_an_fsdp_weight_gather_names_the_matmul_that_reads_it(mesh):
    def layer(x, w):
        return jnp.tanh(x @ w)  # READS W

    x = jax.device_put(np.ones((8, 32), np.float32), NamedSharding(mesh, P("data", None)))
    w = jax.device_put(np.ones((32, 16), np.float32), NamedSharding(mesh, P("model", None)))
    records = shardpy.jit(layer, out_shardings=NamedSharding(mesh, P("data", None))).lower(
        x, w).explain(show=False)
    assert records, "a weight sharded on its contracting dim is moved or reduced"
    lines, start = inspect.getsourcelines(layer)
    line = start + next(i for i, text in enumerate(lines) if "READS W" in text)
    assert all(r.loc.startswith(f"{__file__}:{line}:") for r in records), \
        [r.to_json() for r in records]
