"""The JAX programs `compare_xla.py` partitions with shardpy and with XLA, in one place.

Every program is a function, a mesh, abstract arguments (`jax.ShapeDtypeStruct`s with
a `NamedSharding`) and the result shardings; `Program.lower()` is

    with jax.set_mesh(mesh):
        jax.jit(fn, in_shardings=..., out_shardings=..., keep_unused=True).lower(*args)

with JAX 0.10.2. Both partitioners get that one `Lowered`: shardpy its text, XLA its
`.compile()`. Every argument and result is sharded explicitly (no boundary left to a
partitioner's choice), so both sides must produce the same layouts and the comparison
is about how they partition the inside. Meshes: `mesh8` is one axis of 8, `mesh2x4` is
`["data"=2, "model"=4]` (Auto axes), on 8 CPU host devices.

The issue-4 examples (`examples/generate.py`: DP, FSDP, TP, Megatron MLP on both
meshes, the MLP train step, the transformer block) reuse that file's model functions
and shardings; the rest are defined here. The SwiGLU example is left out: its result is
unreduced and its cotangent argument `reduced`, which JAX 0.10.2 cannot place or read
back through its public API ("device_indices_map doesn't work with unreduced"), so
XLA's side could not run it. Nothing here starts a JAX backend
at import: meshes are built when a program is (PROGRAMS maps names to builders).
"""
from __future__ import annotations

import functools
import importlib.util
import pathlib
from dataclasses import dataclass, field
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

ROOT = pathlib.Path(__file__).resolve().parent.parent
F32 = jnp.float32
AUTO = AxisType.Auto


@dataclass
class Program:
    name: str
    description: str
    fn: Callable
    mesh: Any  # jax.sharding.Mesh
    args: tuple  # pytree of ShapeDtypeStruct (with .sharding)
    out_specs: Any  # pytree of PartitionSpec, like fn's result
    # host inputs for the flattened arguments; None: seeded random (shardpy's arrays.py)
    make_inputs: Callable[[np.random.Generator, list], list] | None = None
    notes: list[str] = field(default_factory=list)

    def lower(self):
        """jax.jit(...).lower(...): the one module both partitioners get."""
        in_shardings = jax.tree.map(lambda a: a.sharding, self.args)
        out_shardings = jax.tree.map(lambda s: NamedSharding(self.mesh, s), self.out_specs,
                                     is_leaf=lambda x: isinstance(x, P))
        with jax.set_mesh(self.mesh):
            jitted = jax.jit(self.fn, in_shardings=in_shardings, out_shardings=out_shardings,
                             keep_unused=True)
            return jitted.lower(*self.args)


# --------------------------------------------------------------------------- helpers


def _mesh8(axis: str):
    return jax.make_mesh((8,), (axis,), axis_types=(AUTO,))


def _mesh2x4():
    return jax.make_mesh((2, 4), ("data", "model"), axis_types=(AUTO, AUTO))


def _arg(mesh, shape, spec, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(mesh, spec))


def _constrain(x, *spec):
    return jax.lax.with_sharding_constraint(x, P(*spec))


@functools.cache
def examples():
    """examples/generate.py as a module (its model functions and shapes)."""
    path = ROOT / "examples" / "generate.py"
    spec = importlib.util.spec_from_file_location("shardpy_examples_generate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- issue 4 examples


def _mlp_args(ex, mesh, x_spec, w1_spec, w2_spec, with_y=False):
    x = _arg(mesh, (ex.BATCH, ex.D_MODEL), x_spec)
    w1 = _arg(mesh, (ex.D_MODEL, ex.HIDDEN), w1_spec)
    w2 = _arg(mesh, (ex.HIDDEN, ex.D_MODEL), w2_spec)
    return (x, _arg(mesh, (ex.BATCH, ex.D_MODEL), x_spec), w1, w2) if with_y else (x, w1, w2)


def mlp_dp(mesh_kind: str):
    ex = examples()
    mesh, batch = ((_mesh8("data"), "data") if mesh_kind == "mesh8"
                   else (_mesh2x4(), ("data", "model")))
    return Program(f"mlp_dp_{mesh_kind}", "MLP forward, batch over all devices", ex.mlp, mesh,
                   _mlp_args(ex, mesh, P(batch, None), P(), P()), P(batch, None))


def mlp_dp_fwd_bwd(mesh_kind: str):
    ex = examples()
    mesh, batch = ((_mesh8("data"), "data") if mesh_kind == "mesh8"
                   else (_mesh2x4(), ("data", "model")))
    return Program(f"mlp_dp_fwd_bwd_{mesh_kind}", "MLP loss + grads, batch over all devices",
                   ex.mlp_loss_and_grads, mesh,
                   _mlp_args(ex, mesh, P(batch, None), P(), P(), with_y=True),
                   (P(), (P(), P())))


def mlp_fsdp(mesh_kind: str):
    ex = examples()
    mesh = _mesh8("data") if mesh_kind == "mesh8" else _mesh2x4()
    s = P("data", None)
    return Program(f"mlp_fsdp_{mesh_kind}", "MLP forward, x and weights dim 0 on data",
                   ex.mlp, mesh, _mlp_args(ex, mesh, s, s, s), s)


def mlp_tp(mesh_kind: str):
    ex = examples()
    mesh, batch = (_mesh8("model"), None) if mesh_kind == "mesh8" else (_mesh2x4(), "data")
    fn = functools.partial(ex.mlp_tp, hidden_spec=P(batch, "model"))
    return Program(f"mlp_tp_{mesh_kind}", "MLP forward, w1 columns on model, hidden constrained",
                   fn, mesh, _mlp_args(ex, mesh, P(batch, None), P(None, "model"), P()),
                   P(batch, None))


def mlp_megatron(mesh_kind: str):
    ex = examples()
    mesh, batch = (_mesh8("model"), None) if mesh_kind == "mesh8" else (_mesh2x4(), "data")
    return Program(f"mlp_megatron_{mesh_kind}", "MLP forward, w1 columns / w2 rows on model",
                   ex.megatron_mlp, mesh,
                   _mlp_args(ex, mesh, P(batch, None), P(None, "model"), P("model", None)),
                   P(batch, None))


def mlp_train_step_mesh2x4():
    ex = examples()
    mesh = _mesh2x4()
    x, y, w1, w2 = _mlp_args(ex, mesh, P("data", None), P(None, "model"), P("model", None),
                             with_y=True)
    specs = {"w1": P(None, "model"), "w2": P("model", None)}
    return Program("mlp_train_step_mesh2x4", "MLP SGD step, DP x TP", ex.mlp_train_step, mesh,
                   ({"w1": w1, "w2": w2}, x, y), (specs, P()))


TRANSFORMER_SPECS = {
    "ln1_scale": P(), "ln1_bias": P(),
    "wq": P(None, "model", None), "wk": P(None, "model", None), "wv": P(None, "model", None),
    "wo": P("model", None, None),
    "ln2_scale": P(), "ln2_bias": P(),
    "w1": P(None, "model"), "w2": P("model", None),
}


def _transformer_params(ex, mesh):
    d, h, k = ex.D_MODEL, ex.HEADS, ex.HEAD_DIM
    shapes = {"ln1_scale": (d,), "ln1_bias": (d,), "wq": (d, h, k), "wk": (d, h, k),
              "wv": (d, h, k), "wo": (h, k, d), "ln2_scale": (d,), "ln2_bias": (d,),
              "w1": (d, ex.HIDDEN), "w2": (ex.HIDDEN, d)}
    return {n: _arg(mesh, shapes[n], TRANSFORMER_SPECS[n]) for n in TRANSFORMER_SPECS}


def transformer_block_fwd_bwd_mesh2x4():
    ex = examples()
    mesh = _mesh2x4()
    x = _arg(mesh, (ex.BATCH, ex.SEQ, ex.D_MODEL), P("data", None, None))
    return Program("transformer_block_fwd_bwd_mesh2x4",
                   "pre-LN block loss + grads, DP x TP (heads, MLP hidden on model)",
                   ex.transformer_loss_and_grads, mesh, (_transformer_params(ex, mesh), x),
                   (P(), TRANSFORMER_SPECS))


# --------------------------------------------------------------------------- transformer step

LEARNING_RATE = 0.1


def transformer_train_step_mesh2x4():
    """value_and_grad of a pre-LN block's loss, then an SGD update of every parameter."""
    ex = examples()
    mesh = _mesh2x4()

    def train_step(params, x, y):
        def loss(p):
            return jnp.mean((ex.transformer_block(p, x) - y) ** 2)

        value, grads = jax.value_and_grad(loss)(params)
        new = jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads)
        return new, value

    x_spec = P("data", None, None)
    shape = (ex.BATCH, ex.SEQ, ex.D_MODEL)
    return Program("transformer_train_step_mesh2x4",
                   "pre-LN block, value_and_grad + SGD update, DP x TP",
                   train_step, mesh,
                   (_transformer_params(ex, mesh), _arg(mesh, shape, x_spec),
                    _arg(mesh, shape, x_spec)),
                   (TRANSFORMER_SPECS, P()))


# --------------------------------------------------------------------------- embedding

VOCAB, EMB_D, EMB_BATCH, EMB_SEQ = 256, 32, 16, 8


def embedding_fwd_bwd_mesh2x4():
    """Vocab-parallel embedding: the table's rows on model, token ids' batch on data."""
    mesh = _mesh2x4()

    def loss(table, w, ids):
        emb = jnp.take(table, ids, axis=0)  # gather; its transpose is a scatter-add
        return jnp.mean(jnp.tanh(emb @ w) ** 2)

    def loss_and_grads(table, w, ids):
        return jax.value_and_grad(loss, argnums=(0, 1))(table, w, ids)

    def inputs(rng, _types):
        return [rng.standard_normal((VOCAB, EMB_D)).astype(np.float32),
                rng.standard_normal((EMB_D, EMB_D)).astype(np.float32),
                rng.integers(0, VOCAB, (EMB_BATCH, EMB_SEQ)).astype(np.int32)]

    args = (_arg(mesh, (VOCAB, EMB_D), P("model", None)), _arg(mesh, (EMB_D, EMB_D), P()),
            _arg(mesh, (EMB_BATCH, EMB_SEQ), P("data", None), jnp.int32))
    return Program("embedding_fwd_bwd_mesh2x4",
                   "jnp.take from a vocab-sharded table, tanh, loss + grads (scatter-add)",
                   loss_and_grads, mesh, args, (P(), (P("model", None), P())),
                   make_inputs=inputs)


# --------------------------------------------------------------------------- scan over layers

LAYERS, SCAN_BATCH, SCAN_D = 4, 16, 32


def scan_layers_fwd_bwd_mesh2x4():
    """lax.scan over 4 stacked dense layers, loss + grads: batch on data, features on model."""
    mesh = _mesh2x4()

    def body(h, wb):
        w, b = wb
        h = jax.nn.gelu(h @ w + b)
        return h, jnp.sum(h)

    def loss(ws, bs, x):
        h, sums = jax.lax.scan(body, x, (ws, bs))
        return jnp.mean(h ** 2) + 1e-3 * jnp.sum(sums)

    def loss_and_grads(ws, bs, x):
        return jax.value_and_grad(loss, argnums=(0, 1))(ws, bs, x)

    ws_spec, bs_spec = P(None, None, "model"), P(None, "model")
    args = (_arg(mesh, (LAYERS, SCAN_D, SCAN_D), ws_spec), _arg(mesh, (LAYERS, SCAN_D), bs_spec),
            _arg(mesh, (SCAN_BATCH, SCAN_D), P("data", None)))
    return Program("scan_layers_fwd_bwd_mesh2x4", "lax.scan over 4 layers, loss + grads",
                   loss_and_grads, mesh, args, (P(), (ws_spec, bs_spec)))


# --------------------------------------------------------------------------- conv net

IMG, CH_IN, CH1, CH2, CLASSES, CONV_BATCH = 16, 4, 8, 16, 10, 16


def _conv(x, k):
    return jax.lax.conv_general_dilated(x, k, window_strides=(1, 1), padding="SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _max_pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def _avg_pool(x):
    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0


def _convnet_loss_and_grads(params, x, labels):
    def loss(p):
        h = _max_pool(jax.nn.relu(_conv(x, p["k1"])))
        h = _avg_pool(jax.nn.relu(_conv(h, p["k2"])))
        logits = h.reshape(h.shape[0], -1) @ p["dense"]
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1))

    return jax.value_and_grad(loss)(params)


CONV_SHAPES = {"k1": (3, 3, CH_IN, CH1), "k2": (3, 3, CH1, CH2),
               "dense": ((IMG // 4) ** 2 * CH2, CLASSES)}


def _convnet(name, description, mesh, batch, param_specs):
    params = {k: _arg(mesh, s, param_specs[k]) for k, s in CONV_SHAPES.items()}
    args = (params, _arg(mesh, (CONV_BATCH, IMG, IMG, CH_IN), P(batch, None, None, None)),
            _arg(mesh, (CONV_BATCH, CLASSES), P(batch, None)))

    def inputs(rng, _types):
        leaves = [rng.standard_normal(CONV_SHAPES[k]).astype(np.float32) * 0.2
                  for k in sorted(CONV_SHAPES)]
        labels = np.eye(CLASSES, dtype=np.float32)[rng.integers(0, CLASSES, CONV_BATCH)]
        return leaves + [rng.standard_normal((CONV_BATCH, IMG, IMG, CH_IN)).astype(np.float32),
                         labels]

    return Program(name, description, _convnet_loss_and_grads, mesh, args,
                   (P(), dict(param_specs)), make_inputs=inputs)


def convnet_fwd_bwd_mesh8():
    mesh = _mesh8("data")
    return _convnet("convnet_fwd_bwd_mesh8",
                    "2 convs, max/avg pool, dense, log-softmax loss + grads; DP over 8",
                    mesh, "data", {k: P() for k in CONV_SHAPES})


def convnet_fwd_bwd_mesh2x4():
    mesh = _mesh2x4()
    return _convnet("convnet_fwd_bwd_mesh2x4",
                    "same; batch on data, conv2 output channels on model",
                    mesh, "data", {"k1": P(), "k2": P(None, None, None, "model"),
                                   "dense": P()})


# --------------------------------------------------------------------------- cumsum, argmax

ROWS, COLS = 16, 64


def cumsum_mesh2x4():
    mesh = _mesh2x4()
    return Program("cumsum_mesh2x4", "jnp.cumsum along the model-sharded dim",
                   lambda x: jnp.cumsum(x, axis=1), mesh,
                   (_arg(mesh, (ROWS, COLS), P("data", "model")),), P("data", "model"))


def argmax_mesh2x4():
    mesh = _mesh2x4()
    return Program("argmax_mesh2x4", "jnp.argmax along the model-sharded dim",
                   lambda x: jnp.argmax(x, axis=1), mesh,
                   (_arg(mesh, (ROWS, COLS), P("data", "model")),), P("data"))


# --------------------------------------------------------------------------- MoE dispatch

GROUPS, TOKENS, MOE_D, EXPERTS, CAPACITY, MOE_HIDDEN = 8, 16, 32, 8, 4, 64


def _top1_dispatch(x, wg):
    """GShard top-1 gating: dispatch mask [G, S, E, C] and combine weights."""
    gates = jax.nn.softmax(jnp.einsum("gsm,me->gse", x, wg), axis=-1)
    expert = jnp.argmax(gates, axis=-1)                                   # [G, S]
    onehot = jax.nn.one_hot(expert, EXPERTS, dtype=x.dtype)               # [G, S, E]
    position = (jnp.cumsum(onehot, axis=1) - 1.0) * onehot                # slot in expert
    keep = onehot * (position < CAPACITY)
    slot = jax.nn.one_hot(jnp.sum(position * keep, axis=-1).astype(jnp.int32), CAPACITY,
                          dtype=x.dtype)                                  # [G, S, C]
    dispatch = keep[..., None] * slot[:, :, None, :]                      # [G, S, E, C]
    combine = dispatch * jnp.sum(gates * keep, axis=-1)[..., None, None]
    return dispatch, combine


def moe_dispatch_mesh8():
    """Expert parallelism the GShard way: token groups and experts on the same axis; the
    dispatch einsum's result is resharded from groups to experts (an all-to-all) and the
    experts' outputs back (another)."""
    mesh = _mesh8("x")

    def moe(x, wg, w_in, w_out):
        dispatch, combine = _top1_dispatch(x, wg)
        expert_in = _constrain(jnp.einsum("gsec,gsm->egcm", dispatch, x), "x", None, None, None)
        h = jax.nn.relu(jnp.einsum("egcm,emh->egch", expert_in, w_in))
        expert_out = _constrain(jnp.einsum("egch,ehm->egcm", h, w_out), "x", None, None, None)
        back = _constrain(expert_out, None, "x", None, None)
        return jnp.einsum("gsec,egcm->gsm", combine, back)

    args = (_arg(mesh, (GROUPS, TOKENS, MOE_D), P("x", None, None)),
            _arg(mesh, (MOE_D, EXPERTS), P()),
            _arg(mesh, (EXPERTS, MOE_D, MOE_HIDDEN), P("x", None, None)),
            _arg(mesh, (EXPERTS, MOE_HIDDEN, MOE_D), P("x", None, None)))
    return Program("moe_dispatch_mesh8",
                   "top-1 MoE: dispatch-mask einsums, groups->experts->groups reshards",
                   moe, mesh, args, P("x", None, None))


def moe_all_to_all_shard_map_mesh8():
    """The same MoE layer written by hand: jax.lax.all_to_all inside a shard_map."""
    mesh = _mesh8("x")

    def local(x, wg, w_in, w_out):  # x [1, S, M]; w_in [1, M, H]; w_out [1, H, M]
        dispatch, combine = _top1_dispatch(x, wg)
        expert_in = jnp.einsum("gsec,gsm->egcm", dispatch, x)             # [E, 1, C, M]
        expert_in = jax.lax.all_to_all(expert_in, "x", 0, 1, tiled=True)  # [1, G, C, M]
        h = jax.nn.relu(jnp.einsum("egcm,emh->egch", expert_in, w_in))
        expert_out = jnp.einsum("egch,ehm->egcm", h, w_out)
        back = jax.lax.all_to_all(expert_out, "x", 1, 0, tiled=True)      # [E, 1, C, M]
        return jnp.einsum("gsec,egcm->gsm", combine, back)

    spec = P("x", None, None)
    moe = jax.shard_map(local, mesh=mesh, in_specs=(spec, P(), spec, spec), out_specs=spec)
    args = (_arg(mesh, (GROUPS, TOKENS, MOE_D), spec), _arg(mesh, (MOE_D, EXPERTS), P()),
            _arg(mesh, (EXPERTS, MOE_D, MOE_HIDDEN), spec),
            _arg(mesh, (EXPERTS, MOE_HIDDEN, MOE_D), spec))
    return Program("moe_all_to_all_shard_map_mesh8",
                   "same MoE layer, explicit jax.lax.all_to_all in shard_map",
                   moe, mesh, args, spec)


# --------------------------------------------------------------------------- registry

PROGRAMS: dict[str, Callable[[], Program]] = {
    "mlp_dp_mesh8": lambda: mlp_dp("mesh8"),
    "mlp_dp_mesh2x4": lambda: mlp_dp("mesh2x4"),
    "mlp_dp_fwd_bwd_mesh8": lambda: mlp_dp_fwd_bwd("mesh8"),
    "mlp_dp_fwd_bwd_mesh2x4": lambda: mlp_dp_fwd_bwd("mesh2x4"),
    "mlp_fsdp_mesh8": lambda: mlp_fsdp("mesh8"),
    "mlp_fsdp_mesh2x4": lambda: mlp_fsdp("mesh2x4"),
    "mlp_tp_mesh8": lambda: mlp_tp("mesh8"),
    "mlp_tp_mesh2x4": lambda: mlp_tp("mesh2x4"),
    "mlp_megatron_mesh8": lambda: mlp_megatron("mesh8"),
    "mlp_megatron_mesh2x4": lambda: mlp_megatron("mesh2x4"),
    "mlp_train_step_mesh2x4": mlp_train_step_mesh2x4,
    "transformer_block_fwd_bwd_mesh2x4": transformer_block_fwd_bwd_mesh2x4,
    "transformer_train_step_mesh2x4": transformer_train_step_mesh2x4,
    "embedding_fwd_bwd_mesh2x4": embedding_fwd_bwd_mesh2x4,
    "scan_layers_fwd_bwd_mesh2x4": scan_layers_fwd_bwd_mesh2x4,
    "convnet_fwd_bwd_mesh8": convnet_fwd_bwd_mesh8,
    "convnet_fwd_bwd_mesh2x4": convnet_fwd_bwd_mesh2x4,
    "cumsum_mesh2x4": cumsum_mesh2x4,
    "argmax_mesh2x4": argmax_mesh2x4,
    "moe_dispatch_mesh8": moe_dispatch_mesh8,
    "moe_all_to_all_shard_map_mesh8": moe_all_to_all_shard_map_mesh8,
}
