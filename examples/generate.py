#!/usr/bin/env python3
"""Regenerate the StableHLO + Shardy (`sdy`) example modules in this directory.

Every `.mlir` file next to this script is exactly what

    jax.jit(f, in_shardings=..., out_shardings=...).lower(*args).as_text()

prints with JAX 0.10.2 (Shardy is the default partitioner there; the SwiGLU
module uses a plain `jax.jit(f)` on an Explicit-axes mesh), lowered on
8 virtual CPU devices, from abstract inputs (`jax.ShapeDtypeStruct` with a
`sharding=`), without debug info (no `loc(...)` and no file paths).

    python examples/generate.py          # rewrite all example files
    python examples/generate.py --check  # exit 1 if a file is stale or missing

See README.md in this directory for what each module is.
"""

import argparse
import functools
import pathlib
import sys

import jax

# Must happen before JAX initialises its backends: always lower for 8 CPU
# devices, whatever accelerator the machine running this script has.
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

EXAMPLES_DIR = pathlib.Path(__file__).resolve().parent

# ---------------------------------------------------------------------------
# Shapes (every sharded dim is divisible by the mesh axes it is sharded on).
# ---------------------------------------------------------------------------
DTYPE = jnp.float32
BATCH = 16
SEQ = 8
D_MODEL = 32
HIDDEN = 64
HEADS = 4
HEAD_DIM = D_MODEL // HEADS
LEARNING_RATE = 0.1

# SwiGLU shapes, fixed by the seed module it reproduces (see swiglu_fwd_bwd).
SWIGLU_SEQ = 4
SWIGLU_BATCH = 8
SWIGLU_D_MODEL = 16
SWIGLU_HIDDEN = 32

# ---------------------------------------------------------------------------
# Meshes. The classic examples use Auto axes (shardings come from jit's
# in/out_shardings and with_sharding_constraint); the SwiGLU one uses
# Explicit axes (shardings live in the types, as in the seed).
# ---------------------------------------------------------------------------
AUTO = AxisType.Auto
MESH_8_DATA = jax.make_mesh((8,), ("data",), axis_types=(AUTO,))
MESH_8_MODEL = jax.make_mesh((8,), ("model",), axis_types=(AUTO,))
MESH_2X4 = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AUTO, AUTO))
MESH_2X2_EXPLICIT = jax.make_mesh(
    (2, 2), ("dp", "tp"), axis_types=(AxisType.Explicit,) * 2, devices=jax.devices()[:4]
)


# ---------------------------------------------------------------------------
# Models.
# ---------------------------------------------------------------------------
def mlp(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


def mse_loss(x, y, w1, w2):
    return jnp.mean((mlp(x, w1, w2) - y) ** 2)


def mlp_loss_and_grads(x, y, w1, w2):
    """Returns (loss, (dloss/dw1, dloss/dw2))."""
    return jax.value_and_grad(mse_loss, argnums=(2, 3))(x, y, w1, w2)


def mlp_tp(x, w1, w2, *, hidden_spec):
    """MLP whose hidden activation (x @ w1) is pinned to `hidden_spec`."""
    h = jax.lax.with_sharding_constraint(x @ w1, hidden_spec)
    return jax.nn.relu(h) @ w2


def megatron_mlp(x, w1, w2):
    """Same math as `mlp`; its own name so the module is @jit_megatron_mlp."""
    return mlp(x, w1, w2)


def mlp_train_step(params, x, y):
    """One SGD step. Returns (new_params, loss)."""
    loss, grads = jax.value_and_grad(lambda p: mse_loss(x, y, p["w1"], p["w2"]))(params)
    new_params = jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads)
    return new_params, loss


def layer_norm(x, scale, bias, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * scale + bias


def attention(x, wq, wk, wv, wo):
    """Multi-head self attention; x: [batch, seq, d_model], wq/wk/wv: [d_model, heads, head_dim]."""
    q = jnp.einsum("bsd,dhk->bhsk", x, wq)
    k = jnp.einsum("bsd,dhk->bhsk", x, wk)
    v = jnp.einsum("bsd,dhk->bhsk", x, wv)
    probs = jax.nn.softmax(jnp.einsum("bhqk,bhsk->bhqs", q, k) / HEAD_DIM**0.5, axis=-1)
    return jnp.einsum("bhqs,bhsk,hkd->bqd", probs, v, wo)


def transformer_block(params, x):
    """Pre-layernorm block: x + attn(ln1(x)), then + mlp(ln2(.))."""
    x = x + attention(layer_norm(x, params["ln1_scale"], params["ln1_bias"]),
                      params["wq"], params["wk"], params["wv"], params["wo"])
    h = layer_norm(x, params["ln2_scale"], params["ln2_bias"])
    return x + jax.nn.gelu(h @ params["w1"]) @ params["w2"]


def transformer_loss_and_grads(params, x):
    """Returns (loss, grads) for loss = mean(block(x)^2)."""
    return jax.value_and_grad(lambda p: jnp.mean(transformer_block(p, x) ** 2))(params)


def swiglu(x, w1, w3, w2):
    """SwiGLU MLP on an Explicit mesh; the output stays unreduced over "tp"."""
    rx = jax.reshard(x, P(None, "dp", None, reduced={"tp"}))
    rw1 = jax.reshard(w1, P(None, "tp", reduced={"dp"}))
    rw3 = jax.reshard(w3, P(None, "tp", reduced={"dp"}))
    rw2 = jax.reshard(w2, P("tp", None, reduced={"dp"}))
    h1 = jnp.einsum("sbh,hi->sbi", rx, rw1)
    h3 = jnp.einsum("sbh,hi->sbi", rx, rw3)
    h = jnp.einsum("sbi,sbi->sbi", jax.nn.silu(h1), h3)
    return jnp.einsum("sbi,ih->sbh", h, rw2, out_sharding=P(None, "dp", None, unreduced={"tp"}))


def forward_and_backward(x, w1, w3, w2, d_out):
    """Returns (swiglu(x, ...), dx, dw1, dw3, dw2) for the cotangent d_out."""
    out, vjp = jax.vjp(swiglu, x, w1, w3, w2)
    return (out, *vjp(d_out))


# ---------------------------------------------------------------------------
# Lowering helpers.
# ---------------------------------------------------------------------------
def is_spec(x):
    return isinstance(x, P)


def arg(mesh, shape, spec):
    """An abstract float32 input of `shape` sharded as `spec` on `mesh`."""
    return jax.ShapeDtypeStruct(shape, DTYPE, sharding=NamedSharding(mesh, spec))


def lower(fn, mesh, args, out_specs):
    """Text of jit(fn) lowered for `args`, with out_shardings from `out_specs`."""
    in_shardings = jax.tree.map(lambda a: a.sharding, args)
    out_shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), out_specs, is_leaf=is_spec)
    with jax.set_mesh(mesh):
        jitted = jax.jit(fn, in_shardings=in_shardings, out_shardings=out_shardings)
        return jitted.lower(*args).as_text()


def mlp_args(mesh, x_spec, w1_spec, w2_spec):
    return (arg(mesh, (BATCH, D_MODEL), x_spec),
            arg(mesh, (D_MODEL, HIDDEN), w1_spec),
            arg(mesh, (HIDDEN, D_MODEL), w2_spec))


def mlp_loss_args(mesh, x_spec, w1_spec, w2_spec):
    x, w1, w2 = mlp_args(mesh, x_spec, w1_spec, w2_spec)
    return (x, arg(mesh, (BATCH, D_MODEL), x_spec), w1, w2)


# ---------------------------------------------------------------------------
# The examples: file name -> function returning the module text.
# ---------------------------------------------------------------------------
def mlp_dp(mesh, batch_axes):
    args = mlp_args(mesh, P(batch_axes, None), P(), P())
    return lower(mlp, mesh, args, P(batch_axes, None))


def mlp_dp_fwd_bwd(mesh, batch_axes):
    args = mlp_loss_args(mesh, P(batch_axes, None), P(), P())
    return lower(mlp_loss_and_grads, mesh, args, (P(), (P(), P())))


def mlp_fsdp(mesh, axes):
    args = mlp_args(mesh, P(axes, None), P(axes, None), P(axes, None))
    return lower(mlp, mesh, args, P(axes, None))


def mlp_tensor_parallel(mesh, batch_axis):
    args = mlp_args(mesh, P(batch_axis, None), P(None, "model"), P())
    fn = functools.partial(mlp_tp, hidden_spec=P(batch_axis, "model"))
    return lower(fn, mesh, args, P(batch_axis, None))


def mlp_megatron(mesh, batch_axis):
    args = mlp_args(mesh, P(batch_axis, None), P(None, "model"), P("model", None))
    return lower(megatron_mlp, mesh, args, P(batch_axis, None))


def mlp_train_step_dp_tp():
    mesh = MESH_2X4
    x, y, w1, w2 = mlp_loss_args(mesh, P("data", None), P(None, "model"), P("model", None))
    params = {"w1": w1, "w2": w2}
    param_specs = {"w1": P(None, "model"), "w2": P("model", None)}
    return lower(mlp_train_step, mesh, (params, x, y), (param_specs, P()))


def transformer_block_fwd_bwd_dp_tp():
    mesh = MESH_2X4
    param_specs = {
        "ln1_scale": P(), "ln1_bias": P(),
        "wq": P(None, "model", None), "wk": P(None, "model", None), "wv": P(None, "model", None),
        "wo": P("model", None, None),
        "ln2_scale": P(), "ln2_bias": P(),
        "w1": P(None, "model"), "w2": P("model", None),
    }
    param_shapes = {
        "ln1_scale": (D_MODEL,), "ln1_bias": (D_MODEL,),
        "wq": (D_MODEL, HEADS, HEAD_DIM), "wk": (D_MODEL, HEADS, HEAD_DIM),
        "wv": (D_MODEL, HEADS, HEAD_DIM), "wo": (HEADS, HEAD_DIM, D_MODEL),
        "ln2_scale": (D_MODEL,), "ln2_bias": (D_MODEL,),
        "w1": (D_MODEL, HIDDEN), "w2": (HIDDEN, D_MODEL),
    }
    params = {name: arg(mesh, param_shapes[name], spec) for name, spec in param_specs.items()}
    x = arg(mesh, (BATCH, SEQ, D_MODEL), P("data", None, None))
    return lower(transformer_loss_and_grads, mesh, (params, x), (P(), param_specs))


def swiglu_fwd_bwd():
    """Reproduces the seed's shared/examples/swiglu_fwd_bwd_jax_lowered.mlir byte for byte.

    Explicit-axes mesh: the shardings are part of the input types, so jit gets
    no in/out_shardings. The cotangent d_out of the "tp"-unreduced output must
    be "tp"-reduced, and the reshards in `swiglu` target `reduced` specs (that
    is what makes the weight/input gradients come out unreduced until the
    final reshard back); Shardy prints no `reduced`, so neither shows in the
    argument shardings.
    """
    mesh = MESH_2X2_EXPLICIT
    args = (arg(mesh, (SWIGLU_SEQ, SWIGLU_BATCH, SWIGLU_D_MODEL), P(None, "dp", None)),
            arg(mesh, (SWIGLU_D_MODEL, SWIGLU_HIDDEN), P(None, "tp")),
            arg(mesh, (SWIGLU_D_MODEL, SWIGLU_HIDDEN), P(None, "tp")),
            arg(mesh, (SWIGLU_HIDDEN, SWIGLU_D_MODEL), P("tp", None)),
            arg(mesh, (SWIGLU_SEQ, SWIGLU_BATCH, SWIGLU_D_MODEL), P(None, "dp", None, reduced={"tp"})))
    with jax.set_mesh(mesh):
        return jax.jit(forward_and_backward).lower(*args).as_text()


EXAMPLES = {
    "mlp_dp_mesh8.mlir": lambda: mlp_dp(MESH_8_DATA, "data"),
    "mlp_dp_mesh2x4.mlir": lambda: mlp_dp(MESH_2X4, ("data", "model")),
    "mlp_dp_fwd_bwd_mesh8.mlir": lambda: mlp_dp_fwd_bwd(MESH_8_DATA, "data"),
    "mlp_dp_fwd_bwd_mesh2x4.mlir": lambda: mlp_dp_fwd_bwd(MESH_2X4, ("data", "model")),
    "mlp_fsdp_mesh8.mlir": lambda: mlp_fsdp(MESH_8_DATA, "data"),
    "mlp_fsdp_mesh2x4.mlir": lambda: mlp_fsdp(MESH_2X4, "data"),
    "mlp_tp_mesh8.mlir": lambda: mlp_tensor_parallel(MESH_8_MODEL, None),
    "mlp_tp_mesh2x4.mlir": lambda: mlp_tensor_parallel(MESH_2X4, "data"),
    "mlp_megatron_mesh8.mlir": lambda: mlp_megatron(MESH_8_MODEL, None),
    "mlp_megatron_mesh2x4.mlir": lambda: mlp_megatron(MESH_2X4, "data"),
    "transformer_block_fwd_bwd_mesh2x4.mlir": transformer_block_fwd_bwd_dp_tp,
    "mlp_train_step_mesh2x4.mlir": mlp_train_step_dp_tp,
    "swiglu_fwd_bwd_mesh2x2.mlir": swiglu_fwd_bwd,
}


JAX_VERSION = "0.10.2"  # the files are byte-exact for this version only


def main(examples=None, script="examples/generate.py", description=__doc__):
    """Write (or --check) `examples`: file name -> function returning the text."""
    examples = EXAMPLES if examples is None else examples
    if jax.__version__ != JAX_VERSION:
        print(f"warning: JAX {jax.__version__} is not {JAX_VERSION}; the output may differ",
              file=sys.stderr)
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if any file differs from what would be generated")
    check = parser.parse_args().check

    stale = []
    for name, generate in examples.items():
        path = EXAMPLES_DIR / name
        text = generate()
        if not text.endswith("\n"):
            text += "\n"
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {name}")

    if stale:
        print(f"out of date (run `python {script}`):", *stale, sep="\n  ")
        return 1
    if check:
        print(f"all {len(examples)} example modules are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
