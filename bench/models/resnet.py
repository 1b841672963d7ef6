"""A small ResNet-style CNN with BatchNorm in training mode, data parallel on (8,).

    stem conv 3x3 (3 -> 32) + BN + relu
    block 1: [conv 3x3 + BN + relu, conv 3x3 + BN] + identity, relu          (32 -> 32)
    block 2: same with stride 2, the shortcut a 1x1 stride-2 conv + BN      (32 -> 64)
    block 3: same as block 1                                                (64 -> 64)
    global average pool, dense head (64 -> 10)

Train step: softmax cross-entropy, optax.sgd with momentum. BatchNorm normalises
with the batch's statistics and updates its running averages, so the batch stats are state the
step takes and returns next to the params and the optimizer state. Images 16x32x32x3 (NHWC) on
"data"; params, batch stats and optimizer state replicated.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from common import ModelProgram

BATCH, SIZE, CHANNELS, CLASSES = 16, 32, 3, 10


def _nnx():
    from flax import nnx
    return nnx


def _model(rngs):
    nnx = _nnx()

    class Block(nnx.Module):
        def __init__(self, cin, cout, stride, rngs):
            self.conv1 = nnx.Conv(cin, cout, (3, 3), strides=stride, use_bias=False, rngs=rngs)
            self.bn1 = nnx.BatchNorm(cout, use_running_average=False, rngs=rngs)
            self.conv2 = nnx.Conv(cout, cout, (3, 3), use_bias=False, rngs=rngs)
            self.bn2 = nnx.BatchNorm(cout, use_running_average=False, rngs=rngs)
            if stride != 1 or cin != cout:
                self.proj = nnx.Conv(cin, cout, (1, 1), strides=stride, use_bias=False, rngs=rngs)
                self.proj_bn = nnx.BatchNorm(cout, use_running_average=False, rngs=rngs)
            else:
                self.proj = None

        def __call__(self, x):
            y = jax.nn.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            shortcut = x if self.proj is None else self.proj_bn(self.proj(x))
            return jax.nn.relu(y + shortcut)

    class ResNet(nnx.Module):
        def __init__(self, rngs):
            self.stem = nnx.Conv(CHANNELS, 32, (3, 3), use_bias=False, rngs=rngs)
            self.stem_bn = nnx.BatchNorm(32, use_running_average=False, rngs=rngs)
            self.blocks = nnx.List([Block(32, 32, 1, rngs), Block(32, 64, 2, rngs),
                                    Block(64, 64, 1, rngs)])
            self.head = nnx.Linear(64, CLASSES, rngs=rngs)

        def __call__(self, x):
            x = jax.nn.relu(self.stem_bn(self.stem(x)))
            for block in self.blocks:
                x = block(x)
            return self.head(jnp.mean(x, axis=(1, 2)))

    return ResNet(rngs)


def build_resnet_bn_dp(mesh):
    import optax
    nnx = _nnx()

    model = _model(nnx.Rngs(0))
    graphdef, params, batch_stats = nnx.split(model, nnx.Param, nnx.BatchStat)
    replicated = NamedSharding(mesh, P())
    params = jax.device_put(params, replicated)
    batch_stats = jax.device_put(batch_stats, replicated)
    tx = optax.sgd(learning_rate=0.05, momentum=0.9)
    opt_state = jax.device_put(tx.init(params), replicated)

    rng = np.random.default_rng(0)
    images = rng.standard_normal((BATCH, SIZE, SIZE, CHANNELS)).astype(np.float32)
    labels = rng.integers(0, CLASSES, size=(BATCH,)).astype(np.int32)
    images = jax.device_put(images, NamedSharding(mesh, P("data")))
    labels = jax.device_put(labels, NamedSharding(mesh, P("data")))

    def train_step(params, batch_stats, opt_state, images, labels):
        def loss_fn(params):
            model = nnx.merge(graphdef, params, batch_stats, copy=True)
            logits = model(images)
            loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
            return loss, nnx.state(model, nnx.BatchStat)

        (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, new_stats, opt_state, loss

    return train_step, (params, batch_stats, opt_state, images, labels)


PROGRAMS = [
    ModelProgram(
        name="resnet_bn_dp_mesh8",
        mesh_shape=(8,),
        axis_names=("data",),
        build=build_resnet_bn_dp,
        donate=(0, 1, 2),
        description="ResNet (stem + 3 residual blocks, BatchNorm in training mode) on 16x32x32x3, "
                    "SGD momentum; DP: images on data, params and batch stats replicated",
    ),
]
