#!/usr/bin/env python3
"""Lower the sharding-propagation corpus into bench/corpus/*.mlir.

Every file is exactly what

    jax.jit(f, in_shardings=..., out_shardings=...).lower(*args).as_text()

prints with JAX 0.10.2, lowered for 8 virtual CPU devices from abstract inputs, without
debug info. The shardings are deliberately *partial*: only some arguments and results
are annotated (the rest have no `sdy.sharding` at all), plus a few
`jax.lax.with_sharding_constraint`s, so a propagation pass has real work to do.
Each model is lowered on two meshes: `mesh8` (one axis of 8) and `mesh2x4`
(`["data"=2, "model"=4]`).

    python bench/corpus.py            # (re)write bench/corpus/*.mlir
    python bench/corpus.py --check    # exit 1 if a file is stale, missing or extra
    python bench/corpus.py --list     # module names and op counts, nothing written

What the modules are: see CORPUS below and bench/README.md.
"""
from __future__ import annotations

import argparse
import functools
import pathlib
import sys

import jax

# Before JAX initialises a backend: always lower for 8 CPU devices.
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

BENCH_DIR = pathlib.Path(__file__).resolve().parent
CORPUS_DIR = BENCH_DIR / "corpus"
JAX_VERSION = "0.10.2"
F32 = jnp.float32

AUTO = AxisType.Auto
MESH8_DATA = jax.make_mesh((8,), ("data",), axis_types=(AUTO,))
MESH8_MODEL = jax.make_mesh((8,), ("model",), axis_types=(AUTO,))
MESH2X4 = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AUTO, AUTO))

# Shapes: every dimension that a user sharding names divides the axes it is sharded on.
BATCH, SEQ, D_MODEL, HIDDEN, HEADS = 16, 8, 32, 64, 4
HEAD_DIM = D_MODEL // HEADS
VOCAB = 256


# --------------------------------------------------------------------------- helpers
class Unspecified:
    """Marks an argument or result left for propagation (no sharding in the module)."""


U = Unspecified()


def spec_or_unspecified(x):
    return isinstance(x, (P, Unspecified))


def named(mesh, spec):
    return None if isinstance(spec, Unspecified) else NamedSharding(mesh, spec)


def arg(shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def lower(fn, mesh, args, in_specs, out_specs) -> str:
    """Text of jit(fn) lowered for `args`; `U` leaves in the specs stay unannotated."""
    in_shardings = jax.tree.map(functools.partial(named, mesh), in_specs,
                                is_leaf=spec_or_unspecified)
    out_shardings = jax.tree.map(functools.partial(named, mesh), out_specs,
                                 is_leaf=spec_or_unspecified)
    with jax.set_mesh(mesh):
        jitted = jax.jit(fn, in_shardings=in_shardings, out_shardings=out_shardings)
        return jitted.lower(*args).as_text()


def constrain(x, *spec):
    return jax.lax.with_sharding_constraint(x, P(*spec))


# --------------------------------------------------------------------------- transformer
def layer_norm(x, scale, bias, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * scale + bias


def transformer_block(p, x, *, probs_spec, hidden_spec):
    h = layer_norm(x, p["ln1_scale"], p["ln1_bias"])
    q = jnp.einsum("bsd,dhk->bhsk", h, p["wq"])
    k = jnp.einsum("bsd,dhk->bhsk", h, p["wk"])
    v = jnp.einsum("bsd,dhk->bhsk", h, p["wv"])
    logits = jnp.einsum("bhqk,bhsk->bhqs", q, k) / HEAD_DIM ** 0.5
    probs = jax.nn.softmax(logits, axis=-1)
    if probs_spec is not None:
        probs = constrain(probs, *probs_spec)
    x = x + jnp.einsum("bhqs,bhsk,hkd->bqd", probs, v, p["wo"])
    h = layer_norm(x, p["ln2_scale"], p["ln2_bias"]) @ p["w1"]
    if hidden_spec is not None:
        h = constrain(h, *hidden_spec)
    return x + jax.nn.gelu(h) @ p["w2"]


TRANSFORMER_SHAPES = {
    "ln1_scale": (D_MODEL,), "ln1_bias": (D_MODEL,),
    "wq": (D_MODEL, HEADS, HEAD_DIM), "wk": (D_MODEL, HEADS, HEAD_DIM),
    "wv": (D_MODEL, HEADS, HEAD_DIM), "wo": (HEADS, HEAD_DIM, D_MODEL),
    "ln2_scale": (D_MODEL,), "ln2_bias": (D_MODEL,),
    "w1": (D_MODEL, HIDDEN), "w2": (HIDDEN, D_MODEL),
}


def transformer_fwd_bwd(mesh, param_specs, x_spec, grad_specs, probs_spec, hidden_spec):
    block = functools.partial(transformer_block, probs_spec=probs_spec, hidden_spec=hidden_spec)

    def loss_and_grads(params, x):
        return jax.value_and_grad(lambda p: jnp.mean(block(p, x) ** 2))(params)

    params = {k: arg(s) for k, s in TRANSFORMER_SHAPES.items()}
    specs = {k: param_specs.get(k, U) for k in TRANSFORMER_SHAPES}
    grads = {k: grad_specs.get(k, U) for k in TRANSFORMER_SHAPES}
    return lower(loss_and_grads, mesh, (params, arg((BATCH, SEQ, D_MODEL))),
                 (specs, x_spec), (U, grads))


def transformer_mesh8():
    """FSDP-flavoured on ["data"=8]: batch and the weights' d_model dim on the same axis."""
    return transformer_fwd_bwd(
        MESH8_DATA,
        param_specs={"w1": P("data", None), "wq": P("data", None, None)},
        x_spec=P("data", None, None),
        grad_specs={"w1": P("data", None)},
        probs_spec=None, hidden_spec=("data", None, None))


def transformer_mesh2x4():
    """DP x TP on ["data"=2, "model"=4]: heads and MLP hidden on model, batch on data."""
    return transformer_fwd_bwd(
        MESH2X4,
        param_specs={"wq": P(None, "model", None), "w1": P(None, "model")},
        x_spec=P("data", None, None),
        grad_specs={"wo": P("model", None, None), "w2": P("model", None)},
        probs_spec=("data", "model", None, None), hidden_spec=("data", None, "model"))


# --------------------------------------------------------------------------- embedding
def embedding_fwd_bwd(mesh, table_spec, ids_spec, w_spec, grad_specs, emb_spec):
    def loss(table, w, ids):
        emb = jnp.take(table, ids, axis=0)  # gather; its transpose is a scatter-add
        if emb_spec is not None:
            emb = constrain(emb, *emb_spec)
        return jnp.mean(jnp.tanh(emb @ w) ** 2)

    def loss_and_grads(table, w, ids):
        return jax.value_and_grad(loss, argnums=(0, 1))(table, w, ids)

    args = (arg((VOCAB, D_MODEL)), arg((D_MODEL, D_MODEL)), arg((BATCH, SEQ), jnp.int32))
    return lower(loss_and_grads, mesh, args, (table_spec, w_spec, ids_spec), (U, grad_specs))


def embedding_mesh8():
    """Vocab-sharded table on ["model"=8]; ids and w unannotated."""
    return embedding_fwd_bwd(MESH8_MODEL, P("model", None), U, U, (P("model", None), U), None)


def embedding_mesh2x4():
    """d-sharded table on model, ids batch on data; the looked-up rows constrained."""
    return embedding_fwd_bwd(MESH2X4, P(None, "model"), P("data", None), U,
                             (U, P("model", None)), ("data", None, "model"))


# --------------------------------------------------------------------------- scan
SCAN_LAYERS = 4


def scan_fwd_bwd(mesh, x_spec, ws_spec, bs_spec, grad_specs, carry_spec):
    def body(h, wb):
        w, b = wb
        h = jax.nn.gelu(h @ w + b)
        if carry_spec is not None:
            h = constrain(h, *carry_spec)
        return h, jnp.sum(h)

    def loss(ws, bs, x):
        h, sums = jax.lax.scan(body, x, (ws, bs))
        return jnp.mean(h ** 2) + 1e-3 * jnp.sum(sums)

    def loss_and_grads(ws, bs, x):
        return jax.value_and_grad(loss, argnums=(0, 1))(ws, bs, x)

    args = (arg((SCAN_LAYERS, D_MODEL, D_MODEL)), arg((SCAN_LAYERS, D_MODEL)),
            arg((BATCH, D_MODEL)))
    return lower(loss_and_grads, mesh, args, (ws_spec, bs_spec, x_spec), (U, grad_specs))


def scan_mesh8():
    """Batch on ["data"=8]; stacked weights unannotated."""
    return scan_fwd_bwd(MESH8_DATA, P("data", None), U, U, (U, U), None)


def scan_mesh2x4():
    """Batch on data, stacked weights' output features on model, carry constrained."""
    return scan_fwd_bwd(MESH2X4, P("data", None), P(None, None, "model"), U,
                        (P(None, None, "model"), U), ("data", "model"))


# --------------------------------------------------------------------------- conv net
IMG, CH_IN, CH1, CH2, CLASSES, CONV_BATCH = 16, 4, 8, 16, 10, 8


def conv(x, k):
    return jax.lax.conv_general_dilated(x, k, window_strides=(1, 1), padding="SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def max_pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def avg_pool(x):
    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0


def convnet_fwd_bwd(mesh, x_spec, param_specs, grad_specs, act_spec):
    def loss(params, x, labels):
        h = max_pool(jax.nn.relu(conv(x, params["k1"])))
        if act_spec is not None:
            h = constrain(h, *act_spec)
        h = avg_pool(jax.nn.relu(conv(h, params["k2"])))
        logits = h.reshape(h.shape[0], -1) @ params["dense"]
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1))

    def loss_and_grads(params, x, labels):
        return jax.value_and_grad(loss)(params, x, labels)

    shapes = {"k1": (3, 3, CH_IN, CH1), "k2": (3, 3, CH1, CH2),
              "dense": ((IMG // 4) ** 2 * CH2, CLASSES)}
    params = {k: arg(s) for k, s in shapes.items()}
    args = (params, arg((CONV_BATCH, IMG, IMG, CH_IN)), arg((CONV_BATCH, CLASSES)))
    in_specs = ({k: param_specs.get(k, U) for k in shapes}, x_spec, U)
    out_specs = (U, {k: grad_specs.get(k, U) for k in shapes})
    return lower(loss_and_grads, mesh, args, in_specs, out_specs)


def convnet_mesh8():
    """Images batch on ["data"=8]; params unannotated; dense grad replicated."""
    return convnet_fwd_bwd(MESH8_DATA, P("data", None, None, None), {}, {"dense": P()}, None)


def convnet_mesh2x4():
    """Batch on data, second conv's output channels on model, pooled activations constrained."""
    return convnet_fwd_bwd(MESH2X4, P("data", None, None, None),
                           {"k2": P(None, None, None, "model")}, {"k1": P()},
                           ("data", None, None, None))


# --------------------------------------------------------------------------- cumsum/argmax/sort
TOPK = 8


def scan_sort_ops(x, *, cumsum_spec):
    c = jnp.cumsum(x, axis=1)
    if cumsum_spec is not None:
        c = constrain(c, *cumsum_spec)
    best = jnp.argmax(c, axis=1)
    ordered = jnp.sort(x, axis=0)
    values, indices = jax.lax.top_k(x * 2.0, TOPK)
    return c, best, ordered, values, indices


def cumsum_mesh8():
    """Rows on ["data"=8]; only the top-k values' result annotated."""
    fn = functools.partial(scan_sort_ops, cumsum_spec=None)
    return lower(fn, MESH8_DATA, (arg((BATCH, HIDDEN)),), (P("data", None),),
                 (U, U, U, P("data", None), U))


def cumsum_mesh2x4():
    """x on both dims (the cumsum/sort/top-k dims are sharded); cumsum constrained."""
    fn = functools.partial(scan_sort_ops, cumsum_spec=("data", "model"))
    return lower(fn, MESH2X4, (arg((BATCH, HIDDEN)),), (P("data", "model"),),
                 (U, P("data"), U, U, U))


# --------------------------------------------------------------------------- chlo + calls
@jax.jit
def softmax_block(h):
    """A nested jit: lowers to a private func reached by func.call (twice)."""
    return jax.nn.softmax(h, axis=-1)


def chlo_mlp(x, w1, w2, *, hidden_spec):
    h = x @ w1
    if hidden_spec is not None:
        h = constrain(h, *hidden_spec)
    h = jnp.where(h > 0, h, 0.01 * h)        # jnp.where: private @_where
    h = softmax_block(h)
    h = jax.nn.gelu(h, approximate=False)    # chlo.erf
    h = h + jnp.sinh(h) * jnp.arctan(h)      # chlo.sinh, chlo.atan
    h = softmax_block(h)
    return h @ w2


def chlo_mlp_fwd_bwd(mesh, in_specs, out_specs, hidden_spec):
    fn = functools.partial(chlo_mlp, hidden_spec=hidden_spec)

    def loss_and_grads(x, w1, w2):
        return jax.value_and_grad(lambda a, b: jnp.mean(fn(x, a, b) ** 2), argnums=(0, 1))(w1, w2)

    args = (arg((BATCH, D_MODEL)), arg((D_MODEL, HIDDEN)), arg((HIDDEN, D_MODEL)))
    return lower(loss_and_grads, mesh, args, in_specs, out_specs)


def chlo_mlp_mesh8():
    """Hidden on ["model"=8] through w1 only; the rest unannotated."""
    return chlo_mlp_fwd_bwd(MESH8_MODEL, (U, P(None, "model"), U), (U, (U, U)), None)


def chlo_mlp_mesh2x4():
    """Batch on data, hidden activation constrained to model; w2's grad annotated."""
    return chlo_mlp_fwd_bwd(MESH2X4, (P("data", None), U, U), (U, (U, P("model", None))),
                            ("data", "model"))


# --------------------------------------------------------------------------- shard_map
def shard_map_fwd_bwd(mesh, manual_axes, in_specs, out_specs, map_in, map_out, reduce_axis):
    def local(a, b):
        y = jnp.tanh(a @ b)
        total = jax.lax.psum(jnp.sum(y, axis=0, keepdims=True), reduce_axis)
        return y - total / BATCH

    mapped = jax.shard_map(local, mesh=mesh, in_specs=map_in, out_specs=map_out,
                           axis_names=manual_axes)

    def loss(x, w1, w2, w3):
        h = jax.nn.relu(x @ w1)                  # auto-sharded before ...
        z = mapped(h, w2)                        # ... the manual region ...
        return jnp.mean((z @ w3) ** 2)           # ... and after it

    def loss_and_grads(x, w1, w2, w3):
        return jax.value_and_grad(loss, argnums=(1, 2, 3))(x, w1, w2, w3)

    args = (arg((BATCH, D_MODEL)), arg((D_MODEL, HIDDEN)), arg((HIDDEN, HIDDEN)),
            arg((HIDDEN, D_MODEL)))
    return lower(loss_and_grads, mesh, args, in_specs, out_specs)


def shard_map_mesh8():
    """Fully manual over ["data"=8] (psum inside); only x annotated outside."""
    return shard_map_fwd_bwd(MESH8_DATA, frozenset({"data"}), (P("data", None), U, U, U),
                             (U, (U, U, U)), (P("data", None), P()), P("data", None), "data")


def shard_map_mesh2x4():
    """Manual over data only (model stays auto inside); w1 columns on model."""
    return shard_map_fwd_bwd(MESH2X4, frozenset({"data"}), (U, P(None, "model"), U, U),
                             (U, (U, U, P(None, "model"))), (P("data", None), P()),
                             P("data", None), "data")


# --------------------------------------------------------------------------- the corpus
CORPUS = {
    "transformer_block_fwd_bwd_mesh8": transformer_mesh8,
    "transformer_block_fwd_bwd_mesh2x4": transformer_mesh2x4,
    "embedding_fwd_bwd_mesh8": embedding_mesh8,
    "embedding_fwd_bwd_mesh2x4": embedding_mesh2x4,
    "scan_layers_fwd_bwd_mesh8": scan_mesh8,
    "scan_layers_fwd_bwd_mesh2x4": scan_mesh2x4,
    "convnet_fwd_bwd_mesh8": convnet_mesh8,
    "convnet_fwd_bwd_mesh2x4": convnet_mesh2x4,
    "cumsum_argmax_topk_mesh8": cumsum_mesh8,
    "cumsum_argmax_topk_mesh2x4": cumsum_mesh2x4,
    "chlo_mlp_calls_fwd_bwd_mesh8": chlo_mlp_mesh8,
    "chlo_mlp_calls_fwd_bwd_mesh2x4": chlo_mlp_mesh2x4,
    "shard_map_mixed_fwd_bwd_mesh8": shard_map_mesh8,
    "shard_map_mixed_fwd_bwd_mesh2x4": shard_map_mesh2x4,
}

MAX_OPS = 2000


def count_ops(text: str) -> int:
    """Operations nested in the module (not the module itself), via the MLIR bindings."""
    from shardpy.ir.jaxlib_bridge import make_context
    from jaxlib.mlir import ir

    with make_context():
        module = ir.Module.parse(text)
        count = 0

        def visit(_op):
            nonlocal count
            count += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        return count - 1


def generate(name: str) -> str:
    text = CORPUS[name]()
    return text if text.endswith("\n") else text + "\n"


def main(argv=None) -> int:
    if jax.__version__ != JAX_VERSION:
        print(f"warning: JAX {jax.__version__} is not {JAX_VERSION}; the output may differ",
              file=sys.stderr)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 if a file is stale, missing or not in the corpus")
    mode.add_argument("--list", action="store_true", help="print op counts; write nothing")
    args = parser.parse_args(argv)

    problems = []
    for name in CORPUS:
        path = CORPUS_DIR / f"{name}.mlir"
        text = generate(name)
        ops = count_ops(text)
        if ops >= MAX_OPS:
            problems.append(f"{name}: {ops} ops (the corpus keeps modules under {MAX_OPS})")
        if args.list:
            print(f"{name:40} {ops:6} ops")
        elif args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                problems.append(f"{path.relative_to(BENCH_DIR.parent)} is stale or missing")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            CORPUS_DIR.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(BENCH_DIR.parent)} ({ops} ops)")
    extra = sorted(p.name for p in CORPUS_DIR.glob("*.mlir") if p.stem not in CORPUS) \
        if CORPUS_DIR.exists() else []
    if args.check:
        problems += [f"bench/corpus/{n} is not produced by bench/corpus.py" for n in extra]
    if problems:
        print("problems (run `python bench/corpus.py`):" if args.check else "problems:",
              *problems, sep="\n  ")
        return 1
    if args.check:
        print(f"all {len(CORPUS)} corpus modules are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
