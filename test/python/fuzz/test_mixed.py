"""The fuzzer's `mixed` feature (test/fuzz/mixed.py): what it draws, and the XLA:CPU bug
that keeps it off the values the `nans` feature put NaN into."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

import generate  # noqa: E402
import mixed  # noqa: E402

SEEDS = range(9_000_000, 9_000_400)


def test_about_one_program_in_eight_draws_it():
    drawn = [s for s in SEEDS if mixed.draws(s)]
    assert 30 <= len(drawn) <= 70


def test_programs_that_do_not_draw_it_are_unchanged():
    features = generate.Features()
    for seed in [s for s in SEEDS if not mixed.draws(s)][:20]:
        assert generate.generate(seed, features).text == \
            generate.generate(seed, features.without(["mixed"])).text


def test_drawn_programs_hold_each_form(context):
    seen = set()
    for seed in [s for s in SEEDS if mixed.draws(s)]:
        text = generate.generate(seed).text
        generate.parse_module(text, context)  # (verifies)
        for line in text.splitlines():
            if "xbf16>" in line or "xf16>" in line:
                if "stablehlo.dot_general" in line and "xf32>" in line.split("->")[-1]:
                    seen.add("dot")
                elif "applies stablehlo.add" in line:
                    seen.add("sum")
                elif "applies stablehlo.maximum" in line:
                    seen.add("max")
                elif "stablehlo.multiply" in line:
                    seen.add("square")
                if "xf16>" in line:
                    seen.add("f16")
    assert seen == {"dot", "sum", "max", "square", "f16"}


def test_no_mixed_values_in_bf16_programs():
    features = generate.Features().with_(["bf16"])
    for seed in [s for s in SEEDS if mixed.draws(s)][:10]:
        assert "xf16>" not in generate.generate(seed, features).text


XLA_GARBAGE = """
import jax, jax.numpy as jnp, numpy as np
def f(a):
    i = jax.lax.broadcasted_iota(jnp.int32, a.shape, 1)
    x = jnp.where(i == 3, jnp.sqrt(jnp.float32(-1.0)), a)
    return jnp.exp(jnp.tanh(jnp.max(x, axis=1)))
a = np.random.default_rng(0).standard_normal((1, 32, 8)).astype(np.float32)
print(bool(np.isnan(np.asarray(jax.jit(f)(a))).all()))
"""


def test_xla_cpu_computes_garbage_for_exp_tanh_of_a_nan_max():
    """Why mixed.py leaves the NaN values alone: on one CPU device, jax.jit of
    exp(tanh(max(x with NaN at index 3 of dim 1))) returns finite garbage (denormals,
    1e31) where every element is NaN (jaxlib 0.10.2). When this fails, a jaxlib fixed
    it and mixed.py may take those values again."""
    found = subprocess.run([sys.executable, "-c", XLA_GARBAGE], capture_output=True,
                           text=True, timeout=120, env={"JAX_PLATFORMS": "cpu",
                                                        "PATH": "/usr/bin:/bin"})
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "False", found.stdout
