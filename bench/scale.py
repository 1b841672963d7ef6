#!/usr/bin/env python3
"""Generate deep modules (~1k, ~10k, ~50k ops) for timing sharding propagation.

Each module is `jax.value_and_grad` of a stack of pre-layernorm transformer layers
(4-head attention + gelu MLP, the same block as the corpus), unrolled by a Python loop,
lowered by JAX 0.10.2 for 8 CPU devices without debug info, on the mesh
["data"=2, "model"=4] with DP x TP input shardings:

    x                  [16, 8, 32]   batch on data
    wq, wk, wv         [32, 4, 8]    heads on model        (every layer)
    wo                 [4, 8, 32]    heads on model
    w1 / w2            [32, 64] / [64, 32]   hidden on model
    layernorm params, the loss and every gradient: unannotated (left to propagation)

    python bench/scale.py                 # write bench/.cache/scale_{1k,10k,50k}.mlir if stale
    python bench/scale.py --force         # regenerate
    python bench/scale.py --sizes 1k 10k  # only these
    python bench/scale.py --out DIR       # somewhere else

The files are not committed (bench/.gitignore): they are regenerated when missing or
when this script changed (bench/.cache/manifest.json records a hash of it). Prints the
op count of each module (operations nested in the module, the module op not counted).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
CACHE_DIR = BENCH_DIR / ".cache"
MANIFEST = "manifest.json"

# Layers per module: a layer is ~335 ops fwd+bwd (the first a few less), so these give about
# 1k, 10k and 50k ops (the printed counts are exact).
SIZES = {"1k": 3, "10k": 30, "50k": 150}

BATCH, SEQ, D_MODEL, HIDDEN, HEADS = 16, 8, 32, 64, 4
HEAD_DIM = D_MODEL // HEADS


def generator_hash() -> str:
    return hashlib.sha256(pathlib.Path(__file__).read_bytes()).hexdigest()[:16]


def module_path(out: pathlib.Path, size: str) -> pathlib.Path:
    return out / f"scale_{size}.mlir"


def lower_stack(layers: int) -> str:
    import jax

    jax.config.update("jax_platforms", "cpu")
    jax.config.update("jax_num_cpu_devices", 8)
    import jax.numpy as jnp
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)

    def layer_norm(x, scale, bias, eps=1e-5):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + eps) * scale + bias

    def block(p, x):
        h = layer_norm(x, p["ln1_scale"], p["ln1_bias"])
        q = jnp.einsum("bsd,dhk->bhsk", h, p["wq"])
        k = jnp.einsum("bsd,dhk->bhsk", h, p["wk"])
        v = jnp.einsum("bsd,dhk->bhsk", h, p["wv"])
        probs = jax.nn.softmax(jnp.einsum("bhqk,bhsk->bhqs", q, k) / HEAD_DIM ** 0.5, axis=-1)
        x = x + jnp.einsum("bhqs,bhsk,hkd->bqd", probs, v, p["wo"])
        h = layer_norm(x, p["ln2_scale"], p["ln2_bias"])
        return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]

    def loss_and_grads(params, x):
        def loss(params):
            h = x
            for p in params:  # unrolled: every layer is its own ops
                h = block(p, h)
            return jnp.mean(h ** 2)

        return jax.value_and_grad(loss)(params)

    shapes = {
        "ln1_scale": ((D_MODEL,), None), "ln1_bias": ((D_MODEL,), None),
        "wq": ((D_MODEL, HEADS, HEAD_DIM), P(None, "model", None)),
        "wk": ((D_MODEL, HEADS, HEAD_DIM), P(None, "model", None)),
        "wv": ((D_MODEL, HEADS, HEAD_DIM), P(None, "model", None)),
        "wo": ((HEADS, HEAD_DIM, D_MODEL), P("model", None, None)),
        "ln2_scale": ((D_MODEL,), None), "ln2_bias": ((D_MODEL,), None),
        "w1": ((D_MODEL, HIDDEN), P(None, "model")), "w2": ((HIDDEN, D_MODEL), P("model", None)),
    }
    layer = {k: jax.ShapeDtypeStruct(s, jnp.float32) for k, (s, _) in shapes.items()}
    layer_shardings = {k: None if spec is None else NamedSharding(mesh, spec)
                       for k, (_, spec) in shapes.items()}
    params = [layer] * layers
    x = jax.ShapeDtypeStruct((BATCH, SEQ, D_MODEL), jnp.float32)
    in_shardings = ([layer_shardings] * layers, NamedSharding(mesh, P("data", None, None)))
    with jax.set_mesh(mesh):
        jitted = jax.jit(loss_and_grads, in_shardings=in_shardings, out_shardings=None)
        text = jitted.lower(params, x).as_text()
    return text if text.endswith("\n") else text + "\n"


def count_ops(text: str) -> int:
    from jaxlib.mlir import ir
    from shardpy.ir.jaxlib_bridge import make_context

    with make_context():
        module = ir.Module.parse(text)
        count = 0

        def visit(_op):
            nonlocal count
            count += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return count - 1


def read_manifest(out: pathlib.Path) -> dict:
    try:
        return json.loads((out / MANIFEST).read_text())
    except (OSError, json.JSONDecodeError):
        return {}


def stale(out: pathlib.Path, sizes: list[str]) -> list[str]:
    """Sizes whose file is missing or was written by another version of this script."""
    manifest = read_manifest(out)
    entries = manifest.get("modules", {})
    return [s for s in sizes if not module_path(out, s).exists() or s not in entries
            or entries[s].get("generator") != generator_hash()]


def ensure(sizes: list[str], out: pathlib.Path = CACHE_DIR, force: bool = False,
           quiet: bool = False) -> dict[str, dict]:
    """Generate what is stale; returns {size: {"path", "ops", "layers"}}."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = read_manifest(out)
    entries = manifest.setdefault("modules", {})
    todo = sizes if force else stale(out, sizes)
    for size in todo:
        start = time.perf_counter()
        text = lower_stack(SIZES[size])
        path = module_path(out, size)
        path.write_text(text, encoding="utf-8")
        entries[size] = {"layers": SIZES[size], "ops": count_ops(text),
                         "generator": generator_hash()}
        (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        if not quiet:
            print(f"wrote {path} ({entries[size]['ops']} ops, {SIZES[size]} layers, "
                  f"{time.perf_counter() - start:.1f} s)")
    return {s: {"path": str(module_path(out, s)), **entries[s]} for s in sizes}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", choices=list(SIZES), default=list(SIZES))
    parser.add_argument("--out", type=pathlib.Path, default=CACHE_DIR,
                        help=f"output directory (default: {CACHE_DIR})")
    parser.add_argument("--force", action="store_true", help="regenerate even if up to date")
    args = parser.parse_args(argv)
    modules = ensure(args.sizes, args.out, args.force)
    print(f"{'module':16} {'layers':>6} {'ops':>8}")
    for size, info in modules.items():
        print(f"{pathlib.Path(info['path']).name:16} {info['layers']:6} {info['ops']:8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
