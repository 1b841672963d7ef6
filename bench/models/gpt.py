"""GPT-style decoder train steps (issue 14): flax.nnx layers, optax clip + AdamW.

The model: token + position embeddings, pre-LN blocks (causal nnx.MultiHeadAttention, GELU
MLP), a final LayerNorm and an untied LM head. Programs:

  gpt_dp_tp_mesh2x4     DP x TP on (2, 4) ("data", "model"): batch on data; Megatron-style
                        tensor parallelism from `nnx.with_partitioning` on the kernels
                        (q/k/v heads and the MLP's hidden dim on model; the attention out
                        and MLP down projections contract over model; vocab on model)
  gpt_bf16_dp_tp_mesh2x4  the DP x TP program in mixed precision: bf16 activations and
                        matmuls (the layers' dtype), f32 weights, gradients, AdamW state
  gpt_fsdp_mesh8        FSDP on (8,) ("data",): batch on data, every weight sharded on data
                        along its largest dim
  gpt_scan_fsdp_mesh8   the FSDP program with the blocks stacked by `nnx.vmap` and run by
                        `nnx.scan`
"""
from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import PartitionSpec as P

from common import ModelProgram
from train import LMSizes, annotated_specs, build_train, fsdp_specs, lm_batch, lm_loss


@dataclass(frozen=True)
class Config(LMSizes):
    heads: int = 4
    mlp: int = 512
    tp: str | None = None  # the mesh axis of tensor parallelism, None for none
    dtype: str | None = None  # the layers' compute dtype ("bfloat16": mixed precision,
                              # f32 weights); None computes in the weights' f32


def _init(spec, init=nnx.initializers.normal(0.02)):
    return nnx.with_partitioning(init, spec) if any(a is not None for a in spec) else init


class Block(nnx.Module):
    def __init__(self, cfg: Config, *, rngs: nnx.Rngs):
        tp = cfg.tp
        self.ln1 = nnx.LayerNorm(cfg.d_model, dtype=cfg.dtype, rngs=rngs)
        self.attn = nnx.MultiHeadAttention(
            num_heads=cfg.heads, in_features=cfg.d_model, decode=False, dtype=cfg.dtype,
            kernel_init=_init((None, tp, None)),       # q/k/v: [d, heads, head_dim]
            out_kernel_init=_init((tp, None, None)),   # out:   [heads, head_dim, d]
            bias_init=_init((tp, None), nnx.initializers.zeros_init()),
            out_bias_init=nnx.initializers.zeros_init(),
            rngs=rngs)
        self.ln2 = nnx.LayerNorm(cfg.d_model, dtype=cfg.dtype, rngs=rngs)
        self.fc = nnx.Linear(cfg.d_model, cfg.mlp, kernel_init=_init((None, tp)), dtype=cfg.dtype,
                             bias_init=_init((tp,), nnx.initializers.zeros_init()), rngs=rngs)
        self.proj = nnx.Linear(cfg.mlp, cfg.d_model, kernel_init=_init((tp, None)),
                               dtype=cfg.dtype, rngs=rngs)

    def __call__(self, x, mask):
        x = x + self.attn(self.ln1(x), mask=mask)
        return x + self.proj(nnx.gelu(self.fc(self.ln2(x))))


class GPT(nnx.Module):
    def __init__(self, cfg: Config, *, scan: bool = False, rngs: nnx.Rngs):
        self.scan = scan
        self.wte = nnx.Embed(cfg.vocab, cfg.d_model, embedding_init=_init((cfg.tp, None)),
                             dtype=cfg.dtype, rngs=rngs)
        self.wpe = nnx.Embed(cfg.seq, cfg.d_model, dtype=cfg.dtype, rngs=rngs)
        if scan:
            @nnx.split_rngs(splits=cfg.layers)
            @nnx.vmap(in_axes=(0,), out_axes=0, transform_metadata={nnx.PARTITION_NAME: None})
            def make_blocks(rngs):
                return Block(cfg, rngs=rngs)

            self.blocks = make_blocks(rngs)
        else:
            self.blocks = nnx.List([Block(cfg, rngs=rngs) for _ in range(cfg.layers)])
        self.ln_f = nnx.LayerNorm(cfg.d_model, dtype=cfg.dtype, rngs=rngs)
        self.head = nnx.Linear(cfg.d_model, cfg.vocab, use_bias=False, dtype=cfg.dtype,
                               kernel_init=_init((None, cfg.tp)), rngs=rngs)

    def __call__(self, tokens):
        seq = tokens.shape[1]
        x = self.wte(tokens) + self.wpe(jnp.arange(seq))[None]
        mask = nnx.make_causal_mask(tokens)
        if self.scan:
            @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
            def run(x, block):
                return block(x, mask)

            x = run(x, self.blocks)
        else:
            for block in self.blocks:
                x = block(x, mask)
        return self.head(self.ln_f(x))


def _build(cfg: Config, *, scan: bool, fsdp_axis: str | None):
    def build(mesh):
        with jax.set_mesh(mesh):  # flax creates annotated variables sharded on it
            model = GPT(cfg, scan=scan, rngs=nnx.Rngs(0))
        batch_axis = mesh.axis_names[0]
        specs = (annotated_specs if fsdp_axis is None
                 else lambda state: fsdp_specs(state, fsdp_axis, mesh.shape[fsdp_axis]))
        batch = lm_batch(cfg.batch, cfg.seq, cfg.vocab)
        return build_train(model, mesh, specs, lm_loss, batch,
                           {"tokens": P(batch_axis, None), "targets": P(batch_axis, None)})

    return build


_SIZES = "vocab 512, seq 64, d 128, 4 heads, mlp 512, 2 layers, batch 16"

PROGRAMS = [
    ModelProgram(
        name="gpt_dp_tp_mesh2x4", mesh_shape=(2, 4), axis_names=("data", "model"),
        build=_build(Config(tp="model"), scan=False, fsdp_axis=None), donate=(0, 1),
        description=f"GPT train step ({_SIZES}), batch on data, Megatron TP on model"),
    ModelProgram(
        # Mixed precision: bf16 activations and matmuls (flax's dtype), f32 weights,
        # gradients and optimizer state; the loss in f32.
        name="gpt_bf16_dp_tp_mesh2x4", mesh_shape=(2, 4), axis_names=("data", "model"),
        build=_build(Config(tp="model", dtype="bfloat16"), scan=False, fsdp_axis=None),
        donate=(0, 1),
        description=f"GPT train step ({_SIZES}) in bf16 with f32 weights, DP x TP"),
    ModelProgram(
        name="gpt_fsdp_mesh8", mesh_shape=(8,), axis_names=("data",),
        build=_build(Config(), scan=False, fsdp_axis="data"), donate=(0, 1),
        description=f"GPT train step ({_SIZES}), FSDP: batch and every weight on data"),
    ModelProgram(
        # Depth: 8 layers lower to 9,920 ops, more than toy programs show (the
        # whole-program choice once stopped at 8,000 ops; past it this ran 2.9x slower).
        name="gpt_fsdp_8l_mesh8", mesh_shape=(8,), axis_names=("data",),
        build=_build(Config(layers=8), scan=False, fsdp_axis="data"), donate=(0, 1),
        description=f"GPT train step ({_SIZES.replace('2 layers', '8 layers')}), FSDP on data"),
    ModelProgram(
        name="gpt_scan_fsdp_mesh8", mesh_shape=(8,), axis_names=("data",),
        build=_build(Config(), scan=True, fsdp_axis="data"), donate=(0, 1),
        description=f"GPT train step ({_SIZES}), blocks by nnx.scan, FSDP on data"),
]
