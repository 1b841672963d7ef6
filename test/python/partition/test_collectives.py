"""Float max/min across devices keep stablehlo's semantics (partition/collectives.py,
CollectiveLowering._ordered_all_reduce): randomized reduces over sharded dims, run on 8
CPU devices, equal to the unpartitioned program on one device (NaN wins, of either sign;
+-inf and +-0 among the values), in f32, bf16, f16 and f64.

XLA:CPU's own float all_reduce drops NaN (test_runtime_all_reduce_drops_nan pins it:
if a jaxlib ever propagates NaN there, the integer round trip can go).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

MESHES = {"x2_y4": (("x", 2), ("y", 4)), "a2_b2_c2": (("a", 2), ("b", 2), ("c", 2))}
VALUES = [-np.inf, -2.0, -1.0, -0.0, 0.0, 1.0, 2.0, np.inf]
ELEMENTS = ("f32", "f64", "f16", "bf16")
CASES = 24


def _dtype(element: str) -> np.dtype:
    from jaxlib.mlir import ir

    from shardpy.ir.types import numpy_dtype

    with ir.Context():
        return numpy_dtype(ir.Type.parse(element))


def _hex(value: float, element: str) -> str:
    """`value` as MLIR writes it for `element` (its bits in hex: how inf is written)."""
    dtype = _dtype(element)
    return "0x%X" % np.array(value, dtype).view(f"u{dtype.itemsize}")


def _ttype(shape, element: str) -> str:
    return f"tensor<{''.join(f'{n}x' for n in shape)}{element}>"


def reduce_case(seed: int):
    """(module text, input shape, element): max or min over 1-2 dims of a 2-3 dim
    operand whose dims are sharded at random (a reduced dim sharded at least once),
    its result sharded as the operand's kept dims (so reduced locally, then across)."""
    rng = random.Random(seed)
    mesh = rng.choice(sorted(MESHES))
    element = rng.choice(sorted(ELEMENTS))
    rank = rng.choice([2, 3])
    shape = [rng.choice([4, 8]) for _ in range(rank)]
    reduced = sorted(rng.sample(range(rank), rng.choice([1, 2]) if rank > 2 else 1))
    dims = [[] for _ in shape]
    axes = list(MESHES[mesh])
    rng.shuffle(axes)
    for i, (axis, size) in enumerate(axes):
        choices = [d for d in range(rank) if shape[d] % (size * 2 ** len(dims[d])) == 0]
        d = reduced[0] if i == 0 else rng.choice(choices)
        if d in choices:
            dims[d].append(axis)
    sharding = ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims)
    reducer = rng.choice(["maximum", "minimum"])
    init = _hex(-np.inf if reducer == "maximum" else np.inf, element)  # (its identity)
    out = [n for d, n in enumerate(shape) if d not in reduced]
    kept = ", ".join("{" + ", ".join(f'"{a}"' for a in dims[d]) + "}"
                     for d in range(rank) if d not in reduced)
    axes_line = ", ".join(f'"{a}"={n}' for a, n in MESHES[mesh])
    text = f"""sdy.mesh @{mesh} = <[{axes_line}]>
func.func public @main(%arg0: {_ttype(shape, element)} {{sdy.sharding = #sdy.sharding<@{mesh}, [{sharding}]>}}) -> {_ttype(out, element)} {{
  %init = stablehlo.constant dense<{init}> : {_ttype((), element)}
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.{reducer} across dimensions = {reduced} {{sdy.sharding = #sdy.sharding_per_value<[<@{mesh}, [{kept}]>]>}} : ({_ttype(shape, element)}, {_ttype((), element)}) -> {_ttype(out, element)}
  return %0 : {_ttype(out, element)}
}}
"""
    return text, shape, element


def _inputs(shape, element: str, seed: int):
    """Values full of ties, infinities and signed zeros, and NaNs of both signs in
    about one row in three."""
    rng = np.random.default_rng(seed)
    x = rng.choice(np.array(VALUES, np.float64), size=shape)
    nan = rng.random(shape) < 0.05
    x[nan] = np.where(rng.random(shape) < 0.5, np.nan, -np.nan)[nan]
    return [x.astype(_dtype(element))]


@pytest.fixture(scope="module")
def runner():
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline
    from shardpy.runtime import executor as runtime

    context = make_context()
    return context, Pipeline("builtin.module(shardpy-partition)", context), \
        runtime.Executor("cpu")


@pytest.mark.parametrize("seed", range(CASES))
def test_max_min_over_sharded_dims_keep_nan(runner, seed):
    from jaxlib.mlir import ir

    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.passes.strip_shardings import StripShardings
    from shardpy.runtime import executor as runtime

    text, shape, element = reduce_case(seed)
    inputs = _inputs(shape, element, seed)
    context, pipeline, executor = runner
    engine = DiagnosticEngine("case.mlir")
    with engine.capturing(context):
        module = ir.Module.parse(text, context)
        sig = runtime.signature(module.operation)
        reference = module.operation.clone()
        assert pipeline.run(module, engine) and not engine.has_errors, text
        partitioned = str(module)
        with context, reference.location:
            StripShardings().run(reference)
        want = executor.run_global(reference, inputs).outputs[0]
        got = executor.run_per_device(module.operation, sig, inputs).outputs[0]
    assert '"stablehlo.all_reduce"' in partitioned, text  # (a reduced dim is sharded)
    # equal values (+0 and -0 alike: XLA's own max of the two keeps either), NaN where
    # NaN: exactly the unpartitioned program's
    assert np.array_equal(got.astype(np.float64), want.astype(np.float64),
                          equal_nan=True), f"{text}\ninputs: {inputs}\ngot {got}\nwant {want}"


def test_integer_max_stays_one_all_reduce(runner):
    """Integers need no round trip: one all_reduce of the values themselves."""
    from jaxlib.mlir import ir

    from shardpy.ir.diagnostics import DiagnosticEngine

    text = """sdy.mesh @x2_y4 = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@x2_y4, [{"x"}, {"y"}]>}) -> tensor<8xi32> {
  %init = stablehlo.constant dense<-2147483648> : tensor<i32>
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@x2_y4, [{"x"}]>]>} : (tensor<8x8xi32>, tensor<i32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
"""
    context, pipeline, _ = runner
    engine = DiagnosticEngine("case.mlir")
    with engine.capturing(context):
        module = ir.Module.parse(text, context)
        assert pipeline.run(module, engine) and not engine.has_errors, text
    partitioned = str(module)
    assert partitioned.count('"stablehlo.all_reduce"') == 1
    assert "bitcast_convert" not in partitioned


def test_runtime_all_reduce_drops_nan():
    """Why the round trip: the CPU runtime's all_reduce with a float maximum (jax's
    pmax) returns 3 for [nan, 1, 2, 3]. Run in a subprocess (8 host devices)."""
    import subprocess
    import sys

    script = """
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((4,), ("x",))
pmax = jax.jit(jax.shard_map(lambda v: jax.lax.pmax(v, "x"), mesh=mesh,
                             in_specs=P("x"), out_specs=P(), check_vma=False))
x = jax.device_put(jnp.array([np.nan, 1, 2, 3], jnp.float32), NamedSharding(mesh, P("x")))
print(float(pmax(x)[0]))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "3.0", out.stdout
