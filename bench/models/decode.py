"""Greedy decoding with a KV cache in `lax.fori_loop`, tensor parallel on (2, 4).

    decoder-only transformer: token + learned position embeddings (vocab 512, d 256),
    2 x [RMSNorm, grouped-query attention (8 query heads, 4 kv heads, head dim 32),
    RMSNorm, gelu MLP 256 -> 1024 -> 256], RMSNorm, vocab head

The step is the whole generate function: prefill the prompt (batch 8, length 16) into the cache,
then 31 iterations of a `lax.fori_loop` each feed the last token at position 16 + i, write its
keys and values into the cache [layers, batch, max_len 48, kv heads, head dim] with
`dynamic_update_slice` at that position, attend over the cache with a position mask and take the
argmax as the next token: 32 tokens generated. Params are TP on "model" (query and kv heads, the MLP's
hidden dim, the head's vocab dim); prompt, cache and tokens on "data", the cache's kv heads on
"model".
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from common import ModelProgram

VOCAB, D, HEADS, KV_HEADS, HEAD_DIM, FF, LAYERS = 512, 256, 8, 4, 32, 1024, 2
BATCH, PROMPT, GENERATE = 8, 16, 32
MAX_LEN = PROMPT + GENERATE


def _model(rngs):
    from flax import nnx

    init = nnx.initializers.lecun_normal()

    def param(shape, spec):
        return nnx.Param(nnx.with_partitioning(init, spec)(rngs.params(), shape))

    class Attention(nnx.Module):
        def __init__(self, layer):
            self.layer = layer
            self.wq = param((D, HEADS, HEAD_DIM), (None, "model", None))
            self.wk = param((D, KV_HEADS, HEAD_DIM), (None, "model", None))
            self.wv = param((D, KV_HEADS, HEAD_DIM), (None, "model", None))
            self.wo = param((HEADS, HEAD_DIM, D), ("model", None, None))

        def __call__(self, x, cache_k, cache_v, pos):      # x [B, T, D], pos: first position
            batch, length, _ = x.shape
            q = jnp.einsum("btd,dhk->bthk", x, self.wq[...])
            k = jnp.einsum("btd,dhk->bthk", x, self.wk[...])
            v = jnp.einsum("btd,dhk->bthk", x, self.wv[...])
            start = (self.layer, 0, pos, 0, 0)
            cache_k = jax.lax.dynamic_update_slice(cache_k, k[None], start)
            cache_v = jax.lax.dynamic_update_slice(cache_v, v[None], start)
            keys, values = cache_k[self.layer], cache_v[self.layer]   # [B, MAX_LEN, KV, K]
            q = q.reshape(batch, length, KV_HEADS, HEADS // KV_HEADS, HEAD_DIM)
            scores = jnp.einsum("btkgh,bskh->bkgts", q, keys) / np.sqrt(HEAD_DIM)
            visible = jnp.arange(MAX_LEN)[None, :] <= (pos + jnp.arange(length))[:, None]
            scores = jnp.where(visible, scores, -1e30)
            probs = jax.nn.softmax(scores, axis=-1)
            out = jnp.einsum("bkgts,bskh->btkgh", probs, values)
            out = out.reshape(batch, length, HEADS, HEAD_DIM)
            return jnp.einsum("bthk,hkd->btd", out, self.wo[...]), cache_k, cache_v

    class Block(nnx.Module):
        def __init__(self, layer):
            self.norm1 = nnx.RMSNorm(D, rngs=rngs)
            self.attn = Attention(layer)
            self.norm2 = nnx.RMSNorm(D, rngs=rngs)
            self.w_up = param((D, FF), (None, "model"))
            self.w_down = param((FF, D), ("model", None))

        def __call__(self, x, cache_k, cache_v, pos):
            y, cache_k, cache_v = self.attn(self.norm1(x), cache_k, cache_v, pos)
            x = x + y
            x = x + jax.nn.gelu(self.norm2(x) @ self.w_up[...]) @ self.w_down[...]
            return x, cache_k, cache_v

    class Decoder(nnx.Module):
        def __init__(self):
            self.embed = nnx.Embed(VOCAB, D, rngs=rngs)
            self.pos_embed = nnx.Embed(MAX_LEN, D, rngs=rngs)
            self.blocks = nnx.List([Block(layer) for layer in range(LAYERS)])
            self.norm = nnx.RMSNorm(D, rngs=rngs)
            self.head = param((D, VOCAB), (None, "model"))

        def __call__(self, tokens, cache_k, cache_v, pos):
            x = self.embed(tokens) + self.pos_embed(pos + jnp.arange(tokens.shape[1]))
            for block in self.blocks:
                x, cache_k, cache_v = block(x, cache_k, cache_v, pos)
            return self.norm(x) @ self.head[...], cache_k, cache_v

    return Decoder()


def build_greedy_decode(mesh):
    from flax import nnx

    with jax.set_mesh(mesh):   # flax shards annotated variables as it creates them
        model = _model(nnx.Rngs(0))
    graphdef, params = nnx.split(model, nnx.Param)
    params = jax.device_put(params, nnx.get_named_sharding(params, mesh))

    rng = np.random.default_rng(0)
    prompt = rng.integers(0, VOCAB, size=(BATCH, PROMPT)).astype(np.int32)
    prompt = jax.device_put(prompt, NamedSharding(mesh, P("data")))
    cache_sharding = NamedSharding(mesh, P(None, "data", None, "model", None))

    def generate(params, prompt):
        model = nnx.merge(graphdef, params)
        shape = (LAYERS, BATCH, MAX_LEN, KV_HEADS, HEAD_DIM)
        cache_k = jax.lax.with_sharding_constraint(jnp.zeros(shape, jnp.float32), cache_sharding)
        cache_v = jax.lax.with_sharding_constraint(jnp.zeros(shape, jnp.float32), cache_sharding)
        logits, cache_k, cache_v = model(prompt, cache_k, cache_v, 0)
        token = jnp.argmax(logits[:, -1], axis=-1).astype(jnp.int32)
        out = jnp.zeros((BATCH, GENERATE), jnp.int32)

        def body(i, carry):
            cache_k, cache_v, token, out = carry
            out = jax.lax.dynamic_update_slice(out, token[:, None], (0, i))
            logits, cache_k, cache_v = model(token[:, None], cache_k, cache_v, PROMPT + i)
            token = jnp.argmax(logits[:, 0], axis=-1).astype(jnp.int32)
            return cache_k, cache_v, token, out

        _, _, token, out = jax.lax.fori_loop(0, GENERATE - 1, body,
                                             (cache_k, cache_v, token, out))
        return jax.lax.dynamic_update_slice(out, token[:, None], (0, GENERATE - 1))

    return generate, (params, prompt)


PROGRAMS = [
    ModelProgram(
        name="greedy_decode_kv_mesh2x4",
        mesh_shape=(2, 4),
        axis_names=("data", "model"),
        build=build_greedy_decode,
        donate=(),
        description="2-layer GQA decoder, greedy generation of 32 tokens after a 16-token prompt, "
                    "KV cache in lax.fori_loop; TP on model (heads, MLP, vocab), batch and cache on data",
    ),
]
