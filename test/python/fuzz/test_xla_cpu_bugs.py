"""XLA:CPU bugs in the one-device reference that the fuzzer's features steer around,
each pinned in a fresh process (jax.jit on one CPU device, jaxlib 0.10.2): when one of
these fails, a jaxlib fixed it and the feature may draw the case again. The last one
needs devices and is steered around in shardpy itself:

  max of 4,096 elements or more drops NaN   nans.py reduces only smaller values
                                            (nans.XLA_CPU_NAN_LIMIT)
  exp(tanh(max)) of a NaN put in by where   mixed.py skips values nans.py made (and
  returns garbage                           copies of them: fuzz_text.Value.nan)
  bf16 x bf16 = f32 dot of a transposed     ir/cpu_collective_dims.py moves no collective
  unfused operand is refused                to dim 0 in a module with such a dot
  ... and of a gather, dynamic_slice or     mixed.py holds the dot's operand in an
  reduce fusion's narrow result             optimization barrier
  a psum of a broadcast complex constant    ir/cpu_complex_sums.py sums complex values
  aborts the compile                        across devices as (real, imag) pairs
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fuzz"))

import nans  # noqa: E402

PRELUDE = "import jax, jax.numpy as jnp, numpy as np\n"


def _run(code: str) -> str:
    found = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True,
                           text=True, timeout=120,
                           env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin"})
    assert found.returncode == 0, found.stderr
    return found.stdout.strip()


def test_xla_cpu_max_of_4096_elements_drops_nan():
    """jnp.max of 4,095 elements with a NaN is NaN; of 4,096 it is a number (so a
    reduce over a sharded dim, which shardpy finishes NaN-exactly, would read as a
    mismatch against the reference: seed 3202235, a 72 x 72 value)."""
    limit = nans.XLA_CPU_NAN_LIMIT
    assert _run(f"""
for n in ({limit - 1}, {limit}):
    a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    a[7] = np.nan
    print(bool(np.isnan(np.asarray(jax.jit(jnp.max)(a)))), end=" ")
""") == "True False"


def test_xla_cpu_exp_tanh_of_a_nan_max_is_garbage():
    """exp(tanh(max(x with NaN at index 3 of dim 1))) over a 1 x 32 x 8 array: finite
    garbage (denormals, 1e31) where every element is NaN (mixed.py's sections start
    with exp(tanh(.)): seeds 9000011 and 3201944). Not every process shows it: under
    load one CI run (2026-11-28) got NaN everywhere, so it is pinned as "some process of
    three shows garbage" (a jaxlib that fixes it gives NaN in all three)."""
    runs = [_run(EXP_TANH_OF_A_NAN_MAX) for _ in range(3)]
    assert "False" in runs, runs


EXP_TANH_OF_A_NAN_MAX = """
def f(a):
    i = jax.lax.broadcasted_iota(jnp.int32, a.shape, 1)
    x = jnp.where(i == 3, jnp.sqrt(jnp.float32(-1.0)), a)
    return jnp.exp(jnp.tanh(jnp.max(x, axis=1)))
a = np.random.default_rng(0).standard_normal((1, 32, 8)).astype(np.float32)
print(bool(np.isnan(np.asarray(jax.jit(f)(a))).all()))
"""


def test_xla_cpu_refuses_a_widening_bf16_dot_of_a_transposed_operand():
    """A bf16 x bf16 = f32 dot whose operand is a transpose of an unfused value (here an
    optimization barrier; in a per-device module a collective) fails at run time with
    "Unsupported element type for DotThunk::Execute: BF16 x BF16 = F32" (fuzz seed 1169
    with the transposes ir/cpu_collective_dims.py puts around a minor-dim all_gather).
    A bf16 result, f16 operands, or no transpose run."""
    assert _run(WIDENING_BF16_DOT) == "False True True True"


WIDENING_BF16_DOT = """
def dot(a, b, t):
    return jax.lax.dot_general(a, b, (((1,), (1,)), ((), ())), preferred_element_type=t)
def transposed(x, t):
    x = jnp.transpose(jax.lax.optimization_barrier(jnp.transpose(x))).astype(t)
    return x
cases = [lambda x: dot(transposed(x, jnp.bfloat16), x.astype(jnp.bfloat16), jnp.float32),
         lambda x: dot(transposed(x, jnp.bfloat16), x.astype(jnp.bfloat16), jnp.bfloat16),
         lambda x: dot(transposed(x, jnp.float16), x.astype(jnp.float16), jnp.float32),
         lambda x: dot(x.astype(jnp.bfloat16), x.astype(jnp.bfloat16), jnp.float32)]
x = jnp.arange(48, dtype=jnp.float32).reshape(6, 8) / 48
for f in cases:
    try:
        np.asarray(jax.jit(f)(x))
        print(True, end=" ")
    except Exception as e:
        assert "DotThunk" in str(e), e
        print(False, end=" ")
"""


def test_xla_cpu_refuses_a_widening_bf16_dot_of_a_gather_fusion():
    """The same refusal where the dot's bf16 operand is what a gather, dynamic_slice or
    reduce fusion converts to bf16 (XLA leaves it bf16 and the dot transposed; fuzz
    seed 10002001, the one invalid program of a 10,000-program run): jax.jit fails on
    one device. Through an optimization barrier (what mixed.py's dot does), or made by
    an elementwise fusion, it runs."""
    assert _run(WIDENING_BF16_DOT_OF_FUSIONS) == "False False False True True True True"


WIDENING_BF16_DOT_OF_FUSIONS = """
from jax import lax
made = [lambda a, b, i: a[:, jnp.clip(i, 0, 4)],
        lambda a, b, i: lax.dynamic_slice(jnp.concatenate([b, b]).T, (0, i[1]), (8, 16)),
        lambda a, b, i: jnp.sum(jnp.stack([b.T, b.T]), 0)]
def dot(x):
    return lax.dot_general(x, x, (((1,), (1,)), ((), ())),
                           preferred_element_type=jnp.float32)
def narrow(x):
    return jnp.exp(jnp.tanh(x)).astype(jnp.bfloat16)
cases = [lambda a, b, i, m=m: dot(narrow(m(a, b, i))) for m in made]
cases += [lambda a, b, i, m=m: dot(lax.optimization_barrier(narrow(m(a, b, i))))
          for m in made]
cases += [lambda a, b, i: dot(narrow(b.T * 2))]
args = (jnp.ones((8, 5), jnp.float32) * 0.3, jnp.ones((16, 8), jnp.float32) * 0.2,
        jnp.arange(16, dtype=jnp.int32) % 5)
for f in cases:
    try:
        np.asarray(jax.jit(f)(*args))
        print(True, end=" ")
    except Exception as e:
        assert "DotThunk" in str(e), e
        print(False, end=" ")
"""


def test_xla_cpu_aborts_on_a_psum_of_a_broadcast_complex_constant():
    """A summing all_reduce (or reduce_scatter) of a broadcast complex constant kills the
    process while XLA:CPU compiles it: "Check failed: buffer != nullptr" in the
    AlgebraicSimplifier's HandleBroadcast (fuzz seed 9981257, where XLA folded a complex
    reduce over zero elements to such a broadcast ahead of shardpy's all_reduce). f32,
    a complex value not constant, and the (real, imag) pair shardpy sums instead run."""
    found = [_aborts(PSUM_OF_BROADCAST.format(total=total)) for total in (
        'jax.lax.psum(c, "x")',
        'jax.lax.psum(jnp.full((4,), 1.0, jnp.float32), "x")',
        'jax.lax.psum(x * (1 + 2j), "x")',
        'jax.lax.psum(jnp.stack([c.real, c.imag], -1), "x") @ jnp.array([1, 1j])')]
    assert found == [True, False, False, False], found


PSUM_OF_BROADCAST = """
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()), ("x",))
def f(x):
    c = jnp.full((4,), 1 + 2j, jnp.complex64)
    return {total} + x
f = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P(), out_specs=P()))
print(np.asarray(f(jnp.zeros(4, jnp.complex64))))
"""


def _aborts(code: str) -> bool:
    """Whether `code` on two CPU devices dies of XLA's check (else it must run)."""
    found = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True,
                           text=True, timeout=120,
                           env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin",
                                "XLA_FLAGS": "--xla_force_host_platform_device_count=2"})
    if found.returncode == 0:
        return False
    assert "Check failed: buffer != nullptr" in found.stderr, found.stderr[-2000:]
    return True
