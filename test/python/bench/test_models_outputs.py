"""bench/models/run.py's output comparison: a float leaf outside the float32 tolerance is
judged against the step run in float64, as the fuzzer judges (float32 rounding passes,
a wrong answer stays a MISMATCH). Needs only jax and numpy (no flax)."""
from __future__ import annotations

import importlib.util
import pathlib

import jax
import jax.numpy as jnp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("bench_models_run_under_test",
                                               ROOT / "bench" / "models" / "run.py")
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def adam_like(x):
    """Sums of large terms cancelling to small ones, divided by their own small size:
    float32 rounding grows far beyond a fixed tolerance, in any summation order."""
    big = jnp.stack([x * 1e4, -x * 1e4 + x * 1e-3])
    return {"update": big.sum(0) / (jnp.abs(x) * 1e-3 + 1e-12), "count": jnp.int32(3)}


ARGS = (jnp.asarray(np.random.default_rng(0).standard_normal(64), jnp.float32),)


def test_equal_outputs_match_without_a_float64_run():
    out = jax.jit(adam_like)(*ARGS)
    result = run.compare_outputs(out, out)
    assert result["status"] == "match" and result["float_leaves"] == 0


def test_rounding_alone_is_a_match_in_float64():
    jax_out = jax.jit(adam_like)(*ARGS)
    exact = run.float64_outputs(adam_like, ARGS, ())
    assert exact["update"].dtype == np.float64
    # another float32 result, as far from float64 as jax.jit's but on the other side
    other = dict(jax_out, update=jnp.asarray(2 * exact["update"] - np.asarray(
        jax_out["update"], np.float64), jnp.float32))
    assert run.compare_outputs(jax_out, other)["status"] == "MISMATCH"
    result = run.compare_outputs(jax_out, other, exact)
    assert result["status"] == "match in float64", result
    assert "within float32 rounding" in result["details"][0]
    assert "jax.jit error" in result["details"][0]


def test_a_wrong_answer_stays_a_mismatch_in_float64():
    jax_out = jax.jit(adam_like)(*ARGS)
    exact = run.float64_outputs(adam_like, ARGS, ())
    wrong = dict(jax_out, update=jax_out["update"].at[3].add(100.0))
    result = run.compare_outputs(jax_out, wrong, exact)
    assert result["status"] == "MISMATCH"
    assert "beyond float32 rounding" in result["details"][0]
