"""A vision transformer train step (flax.nnx + optax.adamw), data × tensor parallel on
(2, 4), its patch embedding sharded on its output features.

The patch embedding is an `nnx.Conv` with stride = patch size whose kernel is sharded
on "model" along its output features, as tensor-parallel code writes it; so the
residual stream arrives with its features on "model", while each block's attention
shards its heads and its MLP its hidden units on "model" (Megatron-style, nnx
metadata). Every weight gradient of a block then multiplies activations whose features
are on "model" with gradients whose heads or hidden units are: the placement matters
(bench/README.md, sixteenth table). The batch is split on "data"; the loss is softmax
cross-entropy with integer labels over a mean-pooled head.
"""
from __future__ import annotations

import optax
from common import ModelProgram  # bench/models/ is on sys.path (run.py puts it there)
from train import annotated_specs, build_train

IMAGE, PATCH, CHANNELS = 32, 4, 3
D, HEADS, HIDDEN, LAYERS, CLASSES, BATCH = 256, 8, 1024, 2, 10, 32


def _vit_class():
    import jax
    import jax.numpy as jnp
    from flax import nnx

    init, zeros = nnx.initializers.lecun_normal(), nnx.initializers.zeros_init()

    def sharded(*spec):
        return nnx.with_partitioning(init, spec)

    class Block(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.ln1 = nnx.LayerNorm(D, rngs=rngs)
            self.ln2 = nnx.LayerNorm(D, rngs=rngs)
            self.attn = nnx.MultiHeadAttention(
                num_heads=HEADS, in_features=D, decode=False, rngs=rngs,
                kernel_init=sharded(None, "model", None),
                out_kernel_init=sharded("model", None, None))
            self.fc1 = nnx.Linear(D, HIDDEN, rngs=rngs, kernel_init=sharded(None, "model"),
                                  bias_init=nnx.with_partitioning(zeros, ("model",)))
            self.fc2 = nnx.Linear(HIDDEN, D, rngs=rngs, kernel_init=sharded("model", None))

        def __call__(self, x):
            x = x + self.attn(self.ln1(x))
            return x + self.fc2(jax.nn.gelu(self.fc1(self.ln2(x))))

    class ViT(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.embed = nnx.Conv(CHANNELS, D, kernel_size=(PATCH, PATCH),
                                  strides=(PATCH, PATCH), rngs=rngs,
                                  kernel_init=sharded(None, None, None, "model"),
                                  bias_init=nnx.with_partitioning(zeros, ("model",)))
            self.blocks = nnx.List([Block(rngs) for _ in range(LAYERS)])
            self.ln = nnx.LayerNorm(D, rngs=rngs)
            self.head = nnx.Linear(D, CLASSES, rngs=rngs)

        def __call__(self, images):
            x = self.embed(images)  # [batch, 8, 8, D]
            x = x.reshape(x.shape[0], -1, D)  # 64 tokens
            for block in self.blocks:
                x = block(x)
            return self.head(jnp.mean(self.ln(x), axis=1))

    return ViT


def _loss(model, batch):
    logits = model(batch["images"])
    return optax.softmax_cross_entropy_with_integer_labels(logits, batch["labels"]).mean()


def build_vit_dp_tp(mesh):
    import jax
    import numpy as np
    from flax import nnx
    from jax.sharding import PartitionSpec as P

    with jax.set_mesh(mesh):  # nnx creates the parameters with their metadata's shardings
        model = _vit_class()(nnx.Rngs(0))
    rng = np.random.default_rng(0)
    batch = {"images": rng.standard_normal((BATCH, IMAGE, IMAGE, CHANNELS), np.float32),
             "labels": rng.integers(0, CLASSES, (BATCH,), np.int32)}
    return build_train(model, mesh, annotated_specs, _loss, batch,
                       {"images": P("data"), "labels": P("data")},
                       tx=optax.adamw(1e-3, weight_decay=1e-2))


PROGRAMS = [
    ModelProgram(
        name="vit_dp_tp_mesh2x4",
        mesh_shape=(2, 4),
        axis_names=("data", "model"),
        build=build_vit_dp_tp,
        donate=(0, 1),
        description=f"ViT: {PATCH}x{PATCH} patch conv ({IMAGE}x{IMAGE}x{CHANNELS} images, "
                    f"kernel's output features on model), {LAYERS} pre-LN blocks (d {D}, "
                    f"{HEADS} heads, MLP {HIDDEN}), integer-label cross-entropy, "
                    f"optax.adamw; batch {BATCH} on data, heads / MLP hidden on model",
        tags=("train",),
    ),
]
