"""A 2-layer MLP train step (flax.nnx + optax.adamw), data × tensor parallel on (2, 4).

The smallest real program of the benchmark: what bench/models/run.py is developed
against. The parameters carry their shardings as nnx metadata
(`nnx.with_partitioning`, Megatron-style: fc1's columns and fc2's rows on "model"), so
they are created sharded under `jax.set_mesh`; the batch is split on "data"; optax's
state follows the parameters.
"""
from __future__ import annotations

from common import ModelProgram  # bench/models/ is on sys.path (run.py puts it there)

D_IN, D_HIDDEN, D_OUT, BATCH = 256, 1024, 256, 64


def _mlp_class():
    import jax
    from flax import nnx

    init, zeros = nnx.initializers.lecun_normal(), nnx.initializers.zeros_init()

    class MLP(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.fc1 = nnx.Linear(D_IN, D_HIDDEN, rngs=rngs,
                                  kernel_init=nnx.with_partitioning(init, (None, "model")),
                                  bias_init=nnx.with_partitioning(zeros, ("model",)))
            self.fc2 = nnx.Linear(D_HIDDEN, D_OUT, rngs=rngs,
                                  kernel_init=nnx.with_partitioning(init, ("model", None)),
                                  bias_init=nnx.with_partitioning(zeros, (None,)))

        def __call__(self, x):
            return self.fc2(jax.nn.gelu(self.fc1(x)))

    return MLP


def build_mlp_dp_tp(mesh):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import optax
    from flax import nnx
    from jax.sharding import NamedSharding, PartitionSpec as P

    with jax.set_mesh(mesh):  # nnx creates the parameters with their metadata's shardings
        model = _mlp_class()(nnx.Rngs(0))
        graphdef, params = nnx.split(model, nnx.Param)
        tx = optax.adamw(1e-3, weight_decay=1e-2)
        opt_state = tx.init(params)
    # Check the placement a user would expect from the metadata.
    specs = nnx.get_partition_spec(params)
    for value, spec in zip(jax.tree.leaves(params), jax.tree.leaves(
            specs, is_leaf=lambda s: isinstance(s, P))):
        assert value.sharding.is_equivalent_to(NamedSharding(mesh, spec), value.ndim), spec

    rng = np.random.default_rng(0)
    batch = NamedSharding(mesh, P("data"))
    x = jax.device_put(rng.standard_normal((BATCH, D_IN), np.float32), batch)
    y = jax.device_put(rng.standard_normal((BATCH, D_OUT), np.float32), batch)

    def train_step(params, opt_state, x, y):
        def loss_fn(params):
            model = nnx.merge(graphdef, params)
            return jnp.mean((model(x) - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return train_step, (params, opt_state, x, y)


PROGRAMS = [
    ModelProgram(
        name="mlp_dp_tp_mesh2x4",
        mesh_shape=(2, 4),
        axis_names=("data", "model"),
        build=build_mlp_dp_tp,
        donate=(0, 1),
        description=f"2-layer MLP {D_IN}-{D_HIDDEN}-{D_OUT} (gelu), MSE, optax.adamw; batch "
                    f"{BATCH} on data, fc1 columns / fc2 rows on model (nnx metadata)",
        tags=("train",),
    ),
]
