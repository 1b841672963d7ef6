"""One process of test_jit_distributed.py: 4 CPU devices of a 2-process cluster.

    python jit_distributed_worker.py PROCESS_ID PORT

A Megatron MLP's loss and gradients on a (2, 4) mesh, from arrays each process makes
from its own shards only (jax.make_array_from_callback, make_array_from_process_local_data),
under shardpy.jit and jax.jit.
Prints one line: whether every output's sharding is == jax.jit's, and the largest
difference over this process's shards.
"""
import os
import sys

os.environ["JAX_PLATFORMS"] = "cpu"
import jax  # noqa: E402

jax.config.update("jax_num_cpu_devices", 4)
jax.config.update("jax_cpu_collectives_implementation", "gloo")
pid, port = int(sys.argv[1]), sys.argv[2]
jax.distributed.initialize(f"localhost:{port}", num_processes=2, process_id=pid,
                           initialization_timeout=60)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402

mesh = jax.make_mesh((2, 4), ("data", "model"),
                     axis_types=(jax.sharding.AxisType.Auto,) * 2)
shardings = (NamedSharding(mesh, P(None, "model")), NamedSharding(mesh, P("model", None)),
             NamedSharding(mesh, P("data", None)))
rng = np.random.default_rng(0)
host = [rng.standard_normal(s).astype(np.float32) for s in [(16, 32), (32, 16), (8, 16)]]
# The weights from a callback; the batch from each process's own rows (its 4 devices
# hold one "data" row of the mesh).
args = [jax.make_array_from_callback(h.shape, s, lambda i, h=h: h[i])
        for h, s in zip(host[:2], shardings[:2])]
rows = {tuple((sl.start, sl.stop) for sl in index) for index in
        shardings[2].addressable_devices_indices_map(host[2].shape).values()}
assert len(rows) == 1, rows
local = host[2][tuple(slice(*r) for r in next(iter(rows)))]
args.append(jax.make_array_from_process_local_data(shardings[2], local, host[2].shape))


def loss(w1, w2, x):
    return jnp.mean((jax.nn.relu(x @ w1) @ w2) ** 2)


step = jax.value_and_grad(loss, argnums=(0, 1))
ours = jax.tree.leaves(shardpy.jit(step, in_shardings=shardings)(*args))
theirs = jax.tree.leaves(jax.jit(step, in_shardings=shardings)(*args))
same = all(a.sharding == b.sharding for a, b in zip(ours, theirs))
error = max(float(np.abs(np.asarray(x.data) - np.asarray(y.data)).max())
            for a, b in zip(ours, theirs)
            for x, y in zip(a.addressable_shards, b.addressable_shards))
print(f"process {pid}: shardings equal {same}, max abs error {error}", flush=True)
jax.distributed.shutdown()
