"""A Llama-style decoder train step (issue 14): flax.nnx layers, optax clip + AdamW.

The model: token embeddings, pre-norm blocks (RMSNorm; causal grouped-query attention with
rotary position embeddings; a SwiGLU MLP), a final RMSNorm and an untied LM head, no
biases anywhere. One program:

  llama_fsdp_tp_mesh2x4  FSDP x TP on (2, 4) ("fsdp", "tp"): batch on fsdp; in every
                         weight, `nnx.with_partitioning` puts the model (d_model) dim on
                         fsdp and the head / MLP hidden / vocab dim on tp, Megatron-style
                         (q/k/v, gate and up projections split their outputs over tp; the
                         attention out and down projections contract over it); the norm
                         scales are replicated.
"""
from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import PartitionSpec as P

from common import ModelProgram
from train import LMSizes, annotated_specs, build_train, lm_batch, lm_loss


@dataclass(frozen=True)
class Config(LMSizes):
    heads: int = 8
    kv_heads: int = 4
    head_dim: int = 16
    hidden: int = 384
    rope_theta: float = 10000.0


_INIT = nnx.initializers.normal(0.02)


def _linear(d_in, d_out, spec, rngs):
    return nnx.Linear(d_in, d_out, use_bias=False,
                      kernel_init=nnx.with_partitioning(_INIT, spec), rngs=rngs)


def rope(x, theta: float):
    """Rotary position embedding of x [batch, seq, heads, head_dim] (halves rotated)."""
    seq, dim = x.shape[1], x.shape[-1]
    freq = 1.0 / theta ** (jnp.arange(0, dim, 2, dtype=jnp.float32) / dim)
    angle = jnp.arange(seq, dtype=jnp.float32)[:, None] * freq[None, :]   # [seq, dim/2]
    cos, sin = jnp.cos(angle)[None, :, None, :], jnp.sin(angle)[None, :, None, :]
    x1, x2 = jnp.split(x, 2, axis=-1)
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


class Attention(nnx.Module):
    def __init__(self, cfg: Config, *, rngs: nnx.Rngs):
        self.cfg = cfg
        d, hd = cfg.d_model, cfg.head_dim
        self.wq = _linear(d, cfg.heads * hd, ("fsdp", "tp"), rngs)
        self.wk = _linear(d, cfg.kv_heads * hd, ("fsdp", "tp"), rngs)
        self.wv = _linear(d, cfg.kv_heads * hd, ("fsdp", "tp"), rngs)
        self.wo = _linear(cfg.heads * hd, d, ("tp", "fsdp"), rngs)

    def __call__(self, x):
        cfg = self.cfg
        b, s, _ = x.shape
        q = rope(self.wq(x).reshape(b, s, cfg.heads, cfg.head_dim), cfg.rope_theta)
        k = rope(self.wk(x).reshape(b, s, cfg.kv_heads, cfg.head_dim), cfg.rope_theta)
        v = self.wv(x).reshape(b, s, cfg.kv_heads, cfg.head_dim)
        group = cfg.heads // cfg.kv_heads          # query heads per kv head
        k, v = jnp.repeat(k, group, axis=2), jnp.repeat(v, group, axis=2)
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(cfg.head_dim).astype(q.dtype)
        causal = jnp.tril(jnp.ones((s, s), dtype=bool))
        scores = jnp.where(causal[None, None], scores, jnp.finfo(scores.dtype).min)
        out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v)
        return self.wo(out.reshape(b, s, cfg.heads * cfg.head_dim))


class SwiGLU(nnx.Module):
    def __init__(self, cfg: Config, *, rngs: nnx.Rngs):
        self.gate = _linear(cfg.d_model, cfg.hidden, ("fsdp", "tp"), rngs)
        self.up = _linear(cfg.d_model, cfg.hidden, ("fsdp", "tp"), rngs)
        self.down = _linear(cfg.hidden, cfg.d_model, ("tp", "fsdp"), rngs)

    def __call__(self, x):
        return self.down(nnx.silu(self.gate(x)) * self.up(x))


class Block(nnx.Module):
    def __init__(self, cfg: Config, *, rngs: nnx.Rngs):
        self.attn_norm = nnx.RMSNorm(cfg.d_model, epsilon=1e-5, rngs=rngs)
        self.attn = Attention(cfg, rngs=rngs)
        self.mlp_norm = nnx.RMSNorm(cfg.d_model, epsilon=1e-5, rngs=rngs)
        self.mlp = SwiGLU(cfg, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.attn_norm(x))
        return x + self.mlp(self.mlp_norm(x))


class Llama(nnx.Module):
    def __init__(self, cfg: Config, *, rngs: nnx.Rngs):
        self.embed = nnx.Embed(cfg.vocab, cfg.d_model,
                               embedding_init=nnx.with_partitioning(_INIT, ("tp", "fsdp")),
                               rngs=rngs)
        self.blocks = nnx.List([Block(cfg, rngs=rngs) for _ in range(cfg.layers)])
        self.norm = nnx.RMSNorm(cfg.d_model, epsilon=1e-5, rngs=rngs)
        self.head = _linear(cfg.d_model, cfg.vocab, ("fsdp", "tp"), rngs)

    def __call__(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def _build(cfg: Config):
    def build(mesh):
        with jax.set_mesh(mesh):  # flax creates annotated variables sharded on it
            model = Llama(cfg, rngs=nnx.Rngs(0))
        batch = lm_batch(cfg.batch, cfg.seq, cfg.vocab)
        return build_train(model, mesh, annotated_specs, lm_loss, batch,
                           {"tokens": P("fsdp", None), "targets": P("fsdp", None)})

    return build


PROGRAMS = [
    ModelProgram(
        name="llama_fsdp_tp_mesh2x4", mesh_shape=(2, 4), axis_names=("fsdp", "tp"),
        build=_build(Config()), donate=(0, 1),
        description="Llama train step (vocab 512, seq 64, d 128, GQA 8 q / 4 kv heads of 16, "
                    "SwiGLU 384, 2 layers, batch 16), batch on fsdp, weights FSDP x TP"),
]
