#!/usr/bin/env python3
"""Train a small decoder-only transformer for 50 steps with shardpy.jit and with jax.jit.

Data x tensor parallel on 8 CPU devices (mesh data=2 x model=4): the batch is split on
"data"; attention heads and the MLP hidden dim on "model". Both trainers start from the
same parameters and see the same batches; the script checks that the losses agree to
1e-4 relative at every step, prints per-step times, and the collectives of shardpy's
partitioned train step.

    python examples/train_transformer.py [--steps 50]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402

VOCAB, SEQ, BATCH, D_MODEL, HEADS, HIDDEN = 64, 16, 8, 32, 4, 128
HEAD_DIM = D_MODEL // HEADS
LEARNING_RATE = 0.05


def init_params(key):
    keys = jax.random.split(key, 7)

    def normal(k, shape, scale):
        return jax.random.normal(k, shape, jnp.float32) * scale

    return {
        "embed": normal(keys[0], (VOCAB, D_MODEL), 0.1),
        "wq": normal(keys[1], (D_MODEL, HEADS, HEAD_DIM), D_MODEL ** -0.5),
        "wk": normal(keys[2], (D_MODEL, HEADS, HEAD_DIM), D_MODEL ** -0.5),
        "wv": normal(keys[3], (D_MODEL, HEADS, HEAD_DIM), D_MODEL ** -0.5),
        "wo": normal(keys[4], (HEADS, HEAD_DIM, D_MODEL), D_MODEL ** -0.5),
        "w1": normal(keys[5], (D_MODEL, HIDDEN), D_MODEL ** -0.5),
        "w2": normal(keys[6], (HIDDEN, D_MODEL), HIDDEN ** -0.5),
        "ln1": jnp.ones((D_MODEL,), jnp.float32),
        "ln2": jnp.ones((D_MODEL,), jnp.float32),
    }


def layer_norm(x, scale):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * scale


def forward(params, tokens):
    x = params["embed"][tokens]                                   # embedding lookup
    h = layer_norm(x, params["ln1"])
    q = jnp.einsum("bsd,dhk->bhsk", h, params["wq"])
    k = jnp.einsum("bsd,dhk->bhsk", h, params["wk"])
    v = jnp.einsum("bsd,dhk->bhsk", h, params["wv"])
    scores = jnp.einsum("bhsk,bhtk->bhst", q, k) / np.sqrt(HEAD_DIM)
    causal = jnp.tril(jnp.ones((SEQ, SEQ), bool))
    scores = jnp.where(causal, scores, -1e9)
    attention = jnp.einsum("bhst,bhtk->bhsk", jax.nn.softmax(scores, axis=-1), v)
    x = x + jnp.einsum("bhsk,hkd->bsd", attention, params["wo"])
    h = layer_norm(x, params["ln2"])
    x = x + jax.nn.gelu(h @ params["w1"]) @ params["w2"]
    return x @ params["embed"].T                                  # tied output layer


def loss_fn(params, tokens):
    logits = forward(params, tokens[:, :-1])
    targets = tokens[:, 1:]
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(log_probs, targets[..., None], axis=-1))


def train_step(params, tokens):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
    return loss, jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, grads)


def shardings(mesh):
    def named(*spec):
        return NamedSharding(mesh, P(*spec))

    params = {"embed": named(), "wq": named(None, "model", None), "wk": named(None, "model", None),
              "wv": named(None, "model", None), "wo": named("model", None, None),
              "w1": named(None, "model"), "w2": named("model", None), "ln1": named(), "ln2": named()}
    return params, named("data", None)


def batches(steps, seed=0):
    rng = np.random.default_rng(seed)
    # A learnable pattern: each sequence counts up from a random start (mod VOCAB).
    for _ in range(steps):
        start = rng.integers(0, VOCAB, size=(BATCH, 1))
        yield ((start + np.arange(SEQ + 1)) % VOCAB).astype(np.int32)


def train(step_fn, params, token_sharding, steps):
    losses, times = [], []
    for tokens in batches(steps):
        tokens = jax.device_put(tokens, token_sharding)
        start = time.perf_counter()
        loss, params = step_fn(params, tokens)
        loss = float(loss)  # waits for the step
        times.append(time.perf_counter() - start)
        losses.append(loss)
    return losses, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()

    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    param_sharding, token_sharding = shardings(mesh)
    params = jax.device_put(init_params(jax.random.key(0)), param_sharding)
    step_shardings = dict(in_shardings=(param_sharding, token_sharding),
                          out_shardings=(NamedSharding(mesh, P()), param_sharding))

    ours = shardpy.jit(train_step, **step_shardings)
    theirs = jax.jit(train_step, **step_shardings)
    our_losses, our_times = train(ours, params, token_sharding, args.steps)
    jax_losses, jax_times = train(theirs, params, token_sharding, args.steps)

    worst = 0.0
    print(f"{'step':>4}  {'shardpy.jit loss':>16}  {'jax.jit loss':>12}  {'rel diff':>9}")
    for step, (a, b) in enumerate(zip(our_losses, jax_losses)):
        rel = abs(a - b) / max(abs(b), 1e-12)
        worst = max(worst, rel)
        if step % 5 == 0 or step == args.steps - 1:
            print(f"{step:>4}  {a:>16.6f}  {b:>12.6f}  {rel:>9.2e}")
    median = lambda xs: float(np.median(xs[1:] if len(xs) > 1 else xs)) * 1e3  # noqa: E731
    print(f"per-step time (median, first step excluded): shardpy.jit {median(our_times):.2f} ms,"
          f" jax.jit {median(jax_times):.2f} ms")
    print(f"first step (includes compiling): shardpy.jit {our_times[0] * 1e3:.0f} ms, "
          f"jax.jit {jax_times[0] * 1e3:.0f} ms")
    tokens = next(batches(1))
    report = ours.lower(params, jax.device_put(tokens, token_sharding)).report
    print("collectives of shardpy's train step:")
    for kind, entry in report["collectives"].items():
        print(f"  {kind}: {entry['count']} ({entry['bytes_per_device']:.0f} bytes/device)")
    ok = worst <= 1e-4 and our_losses[-1] < our_losses[0]
    print(f"largest relative loss difference: {worst:.2e} -> {'OK' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
