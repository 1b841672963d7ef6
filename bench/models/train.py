"""How the benchmark's train steps are written: the flax.nnx + optax idiom, once.

    graphdef, params = nnx.split(model)                    # outside the step
    params = jax.device_put(params, shardings)             # NamedShardings per leaf
    opt_state = init_opt_state(tx, params, mesh)           # optax state, sharded like params
    step(params, opt_state, batch) -> (params, opt_state, loss)

The step is a pure function: it merges the model from `graphdef` (closed over) and the
params it is given, takes the loss and its gradients with `jax.value_and_grad`, and applies
the optax update. Nothing here is jitted: the runner jits the step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import jax
import optax
from flax import nnx
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclass(frozen=True)
class LMSizes:
    """The sizes every language model of the benchmark has (small: a CPU step of ~5-200 ms)."""
    vocab: int = 512
    seq: int = 64
    d_model: int = 128
    layers: int = 2
    batch: int = 16


def optimizer(learning_rate: float = 3e-4, weight_decay: float = 0.1) -> optax.GradientTransformation:
    """Clipping then AdamW, as a transformer train step is usually written."""
    return optax.chain(optax.clip_by_global_norm(1.0),
                       optax.adamw(learning_rate, b1=0.9, b2=0.95, weight_decay=weight_decay))


def annotated_specs(state) -> Any:
    """The PartitionSpec of every leaf, from the `nnx.with_partitioning` annotations."""
    return nnx.get_partition_spec(state)


def fsdp_specs(state, axis: str, size: int) -> Any:
    """FSDP: every weight sharded on `axis` along its largest dim that `size` divides
    (the first such dim on ties); a leaf no dim of which divides stays replicated."""

    def spec(x):
        dims = [d for d in range(x.ndim) if x.shape[d] % size == 0]
        if not dims:
            return P()
        best = max(dims, key=lambda d: (x.shape[d], -d))
        return P(*[axis if d == best else None for d in range(x.ndim)])

    return jax.tree.map(spec, state)


def shard(tree, mesh, specs):
    """`tree` placed on `mesh` with one NamedSharding per leaf from `specs` (a tree of
    PartitionSpecs of the same structure)."""
    shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), specs,
                             is_leaf=lambda s: isinstance(s, P))
    return jax.device_put(tree, shardings)


def init_opt_state(tx: optax.GradientTransformation, params, mesh):
    """The optax state of `params`, jitted so that every moment is sharded like its param
    and every other leaf (the step count) is replicated."""
    param_shardings = jax.tree.map(lambda x: x.sharding, params)
    abstract = jax.eval_shape(tx.init, params)
    out_shardings = optax.tree_map_params(
        tx, lambda _, s: s, abstract, param_shardings,
        transform_non_params=lambda _: NamedSharding(mesh, P()))
    return jax.jit(tx.init, out_shardings=out_shardings)(params)


def train_step(graphdef, loss_fn: Callable, tx: optax.GradientTransformation) -> Callable:
    """step(params, opt_state, batch) -> (params, opt_state, loss), where
    loss_fn(model, batch) -> scalar loss of the merged model."""

    def step(params, opt_state, batch):
        def loss_of(p):
            return loss_fn(nnx.merge(graphdef, p), batch)

        loss, grads = jax.value_and_grad(loss_of)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return step


def build_train(model, mesh, specs, loss_fn: Callable, batch, batch_specs,
                tx: optax.GradientTransformation | None = None):
    """(step, (params, opt_state, batch)) for `model` with its state sharded by `specs`
    (a tree of PartitionSpecs, or a function state -> specs) and the batch by
    `batch_specs`: what a ModelProgram's build returns."""
    tx = tx or optimizer()
    graphdef, params = nnx.split(model)
    if callable(specs):
        specs = specs(params)
    params = shard(params, mesh, specs)
    opt_state = init_opt_state(tx, params, mesh)
    batch = shard(batch, mesh, batch_specs)
    return train_step(graphdef, loss_fn, tx), (params, opt_state, batch)


def lm_loss(model, batch):
    """Next-token cross entropy: batch = {"tokens": [B, S], "targets": [B, S]} int32."""
    logits = model(batch["tokens"])
    return optax.softmax_cross_entropy_with_integer_labels(
        logits.astype("float32"), batch["targets"]).mean()


def lm_batch(batch: int, seq: int, vocab: int, seed: int = 0):
    """A fixed batch of random tokens; the targets are the tokens shifted by one."""
    import numpy as np

    rng = np.random.default_rng(seed)
    tokens = rng.integers(0, vocab, size=(batch, seq + 1), dtype=np.int32)
    return {"tokens": tokens[:, :-1], "targets": tokens[:, 1:]}
