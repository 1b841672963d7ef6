"""A transformer whose MLPs are top-2 mixtures of experts, experts on a mesh axis (2, 4).

    embed (vocab 512, d 128) -> 2 x [LayerNorm, causal self-attention (4 heads),
    LayerNorm, MoE MLP (8 experts, d 128 -> 256 -> 128, top-2)] -> LayerNorm -> vocab head

The MoE layer is GShard's dense dispatch: the router's logits go through top_k(2) and a softmax
over the two chosen logits gives the gates; each token takes a slot (its position among the
tokens of its group sent to that expert, from a cumsum) in the expert's buffer of capacity
C = 1.25 * 2 * S / E; one-hot dispatch and combine tensors [G, S, E, C] move tokens into the
experts' buffers and back with einsums. A group G is one sequence. The expert weights are stacked
on a leading expert dim, sharded on "expert"; the expert buffers [E, G, C, d] are constrained to
("expert", "data"). Loss: next-token cross-entropy + 0.01 x the load-balancing loss. optax.adamw.
Tokens (8 x 32) on "data"; the dense weights replicated.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from common import ModelProgram

VOCAB, D, HEADS, LAYERS, EXPERTS, HIDDEN = 512, 128, 4, 2, 8, 256
BATCH, SEQ = 8, 32
CAPACITY = math.ceil(1.25 * 2 * SEQ / EXPERTS)


def _model(mesh, rngs):
    from flax import nnx

    buffer_sharding = NamedSharding(mesh, P("expert", "data", None, None))
    init = nnx.initializers.lecun_normal()

    class MoE(nnx.Module):
        def __init__(self, rngs):
            self.router = nnx.Linear(D, EXPERTS, use_bias=False, rngs=rngs)
            self.w_in = nnx.Param(nnx.with_partitioning(init, ("expert", None, None))(
                rngs.params(), (EXPERTS, D, HIDDEN)))
            self.w_out = nnx.Param(nnx.with_partitioning(init, ("expert", None, None))(
                rngs.params(), (EXPERTS, HIDDEN, D)))

        def __call__(self, x):                                   # x [G, S, D]
            logits = self.router(x)                              # [G, S, E]
            probs = jax.nn.softmax(logits, axis=-1)
            top_logits, top_idx = jax.lax.top_k(logits, 2)       # [G, S, 2]
            gates = jax.nn.softmax(top_logits, axis=-1)
            mask1 = jax.nn.one_hot(top_idx[..., 0], EXPERTS, dtype=x.dtype)
            mask2 = jax.nn.one_hot(top_idx[..., 1], EXPERTS, dtype=x.dtype)
            # load balancing (GShard): fraction of tokens whose first choice is e x mean prob of e
            aux = jnp.mean(jnp.mean(mask1, axis=1) * jnp.mean(probs, axis=1)) * EXPERTS ** 2
            # slots: position of the token among its group's tokens sent to the expert
            pos1 = jnp.cumsum(mask1, axis=1) - 1.0
            mask1 = mask1 * (pos1 < CAPACITY)
            pos2 = jnp.cumsum(mask2, axis=1) - 1.0 + jnp.sum(mask1, axis=1, keepdims=True)
            mask2 = mask2 * (pos2 < CAPACITY)
            slot1 = jnp.sum(pos1 * mask1, axis=-1).astype(jnp.int32)     # [G, S]
            slot2 = jnp.sum(pos2 * mask2, axis=-1).astype(jnp.int32)
            gate1 = gates[..., 0] * jnp.sum(mask1, axis=-1)
            gate2 = gates[..., 1] * jnp.sum(mask2, axis=-1)
            combine = (gate1[..., None, None] * mask1[..., None]
                       * jax.nn.one_hot(slot1, CAPACITY, dtype=x.dtype)[..., None, :]
                       + gate2[..., None, None] * mask2[..., None]
                       * jax.nn.one_hot(slot2, CAPACITY, dtype=x.dtype)[..., None, :])
            dispatch = (combine > 0).astype(x.dtype)             # [G, S, E, C]
            expert_in = jnp.einsum("gsec,gsd->egcd", dispatch, x)
            expert_in = jax.lax.with_sharding_constraint(expert_in, buffer_sharding)
            h = jax.nn.gelu(jnp.einsum("egcd,edh->egch", expert_in, self.w_in[...]))
            expert_out = jnp.einsum("egch,ehd->egcd", h, self.w_out[...])
            expert_out = jax.lax.with_sharding_constraint(expert_out, buffer_sharding)
            return jnp.einsum("gsec,egcd->gsd", combine, expert_out), aux

    class Block(nnx.Module):
        def __init__(self, rngs):
            self.ln1 = nnx.LayerNorm(D, rngs=rngs)
            self.attn = nnx.MultiHeadAttention(num_heads=HEADS, in_features=D, use_bias=False,
                                               decode=False,
                                               deterministic=True, keep_rngs=False, rngs=rngs)
            self.ln2 = nnx.LayerNorm(D, rngs=rngs)
            self.moe = MoE(rngs)

        def __call__(self, x, mask):
            x = x + self.attn(self.ln1(x), mask=mask)
            y, aux = self.moe(self.ln2(x))
            return x + y, aux

    class Model(nnx.Module):
        def __init__(self, rngs):
            self.embed = nnx.Embed(VOCAB, D, rngs=rngs)
            self.blocks = nnx.List([Block(rngs) for _ in range(LAYERS)])
            self.ln_f = nnx.LayerNorm(D, rngs=rngs)
            self.head = nnx.Linear(D, VOCAB, use_bias=False, rngs=rngs)

        def __call__(self, tokens):
            x = self.embed(tokens)
            mask = nnx.make_causal_mask(tokens)
            aux_total = 0.0
            for block in self.blocks:
                x, aux = block(x, mask)
                aux_total = aux_total + aux
            return self.head(self.ln_f(x)), aux_total

    return Model(rngs)


def build_moe_top2(mesh):
    import optax
    from flax import nnx

    with jax.set_mesh(mesh):   # flax shards annotated variables as it creates them
        model = _model(mesh, nnx.Rngs(0))
    graphdef, params = nnx.split(model, nnx.Param)
    params = jax.device_put(params, nnx.get_named_sharding(params, mesh))
    tx = optax.adamw(1e-3, weight_decay=0.01)
    opt_state = tx.init(params)

    rng = np.random.default_rng(0)
    tokens = rng.integers(0, VOCAB, size=(BATCH, SEQ + 1)).astype(np.int32)
    batch = NamedSharding(mesh, P("data"))
    inputs = jax.device_put(tokens[:, :-1], batch)
    targets = jax.device_put(tokens[:, 1:], batch)

    def train_step(params, opt_state, inputs, targets):
        def loss_fn(params):
            model = nnx.merge(graphdef, params)
            logits, aux = model(inputs)
            ce = optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()
            return ce + 0.01 * aux

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return train_step, (params, opt_state, inputs, targets)


PROGRAMS = [
    ModelProgram(
        name="moe_top2_mesh2x4",
        mesh_shape=(2, 4),
        axis_names=("data", "expert"),
        build=build_moe_top2,
        donate=(0, 1),
        description="2-layer transformer with top-2 MoE MLPs (8 experts, GShard einsum dispatch), "
                    "adamw; tokens on data, expert weights and buffers on expert",
    ),
]
