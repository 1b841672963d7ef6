"""The fuzzer's float64 check (test/fuzz/float64_check.py): float outputs that fail the
float32 comparison pass when the partitioned result is about as close to an exact
float64 run as the one-device float32 reference is; real errors stay mismatches.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

import float64_check  # noqa: E402
import fuzz_text  # noqa: E402
import generate  # noqa: E402
import known_issues  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5
EXACT = np.array([1.0, -0.0932], np.float64)
# Seed 509139: out0 is a dot of 576 terms (|terms| sum ~3450) that cancel to ~-0.09.
CANCELLING_SEED = 509139


def f32(x) -> np.ndarray:
    return np.asarray(x, np.float32)


def judge(partitioned, reference, exact=EXACT):
    return float64_check.judge("out0", partitioned, reference, exact, RTOL, ATOL)


# ------------------------------------------------------------------ judging (numpy)


def test_partitioned_as_accurate_as_the_reference_passes():
    reference = f32(EXACT + [0.0, 4e-5])
    partitioned = f32(EXACT + [0.0, -1e-5])
    j = judge(partitioned, reference)
    assert j.ok, j.line
    assert "within float32 rounding" in j.line and "against float64" in j.line


def test_partitioned_close_to_float64_passes_even_if_the_reference_is_too():
    j = judge(f32(EXACT), f32(EXACT))
    assert j.ok, j.line


def test_wrong_partitioned_output_stays_a_mismatch():
    reference = f32(EXACT + [0.0, 4e-5])
    j = judge(f32(EXACT + [0.0, 0.5]), reference)
    assert not j.ok
    assert "beyond float32 rounding" in j.line
    assert "partitioned error 0.5" in j.line and "one-device error 4e-05" in j.line


def test_more_than_four_times_the_reference_error_is_a_mismatch():
    reference = f32(EXACT + [0.0, 4e-5])
    assert not judge(f32(EXACT + [0.0, 3e-4]), reference).ok


@pytest.mark.parametrize("partitioned, reference", [
    (np.array([1, 2], np.int32), np.array([1, 3], np.int32)),      # integers
    (np.array([True, False]), np.array([True, True])),             # booleans
    (f32([1.0, 2.0, 3.0]), f32([1.0, 2.0])),                       # shapes
    (f32([1.0, np.nan]), f32([1.0, 2.0])),                         # NaN
    (f32([1.0, np.inf]), f32([1.0, np.inf])),                      # infinities
])
def test_outputs_the_check_does_not_judge(partitioned, reference):
    assert not float64_check.applies(partitioned, reference)
    exact = np.zeros(reference.shape, np.float64)
    assert not judge(partitioned, reference, exact).ok


def test_integer_outputs_must_match_for_a_faithful_reference():
    reference = [f32([0.5]), np.array([3], np.int32)]
    same = [np.array([0.5]), np.array([3], np.int32)]
    flipped = [np.array([0.5]), np.array([4], np.int32)]
    assert float64_check.same_discrete_outputs(reference, same)
    assert not float64_check.same_discrete_outputs(reference, flipped)


def test_inputs_widen_exactly():
    x = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    i = np.arange(3, dtype=np.int32)
    wide, ints = float64_check.widen([x, i])
    assert wide.dtype == np.float64 and np.array_equal(wide, x)
    assert ints is i


def bf16(x) -> np.ndarray:
    import ml_dtypes

    return np.asarray(x, np.float32).astype(ml_dtypes.bfloat16)


def test_bf16_outputs_are_judged_in_float64():
    """numpy does not count ml_dtypes' bfloat16 as np.floating: until the check asked
    shardpy.runtime.arrays.is_floating, no bf16 output was ever judged (and every bf16
    program's outputs failed same_discrete_outputs), so correct bf16 programs whose
    one-device sum saturates (seed 6202: 1,400 off the float64 sum, the partitioned
    one 350) stayed mismatches."""
    exact = np.array([960.0, 2.0], np.float64)
    reference, partitioned = bf16([256.0, 2.0]), bf16([960.0, 2.0])
    assert float64_check.applies(partitioned, reference)
    j = float64_check.judge("out0", partitioned, reference, exact, 0.0625, 0.0078125)
    assert j.ok and "within bfloat16 rounding" in j.line, j.line
    # A reference near the float64 result: 1.0 off on values of ~8 is a mismatch
    # (beyond 4x its error and beyond bf16's tolerances, 0.0078 + 0.0625 * 8).
    exact = np.array([8.0, 2.0], np.float64)
    reference = bf16([8.0625, 2.0])
    j = float64_check.judge("out0", bf16([7.9375, 2.0]), reference, exact, 0.0625,
                            0.0078125)
    assert j.ok, j.line
    j = float64_check.judge("out0", bf16([9.0, 2.0]), reference, exact, 0.0625, 0.0078125)
    assert not j.ok and "beyond bfloat16 rounding" in j.line, j.line


def test_bf16_outputs_are_not_discrete():
    reference = [bf16([0.5]), np.array([3], np.int32)]
    assert float64_check.same_discrete_outputs(reference, [np.array([0.75]),
                                                           np.array([3], np.int32)])
    assert not float64_check.same_discrete_outputs(reference, [np.array([0.5]),
                                                               np.array([4], np.int32)])


def test_bf16_and_complex_inputs_widen_exactly():
    x = bf16(np.random.default_rng(0).standard_normal(8))
    z = (np.arange(3) + 1j * np.arange(3)).astype(np.complex64)
    h = np.linspace(-2, 2, 5).astype(np.float16)
    wide, zw, hw = float64_check.widen([x, z, h])
    assert wide.dtype == np.float64 and np.array_equal(wide, x.astype(np.float32))
    assert zw.dtype == np.complex128 and np.array_equal(zw, z)
    assert hw.dtype == np.float64 and np.array_equal(hw, h)


def test_narrow_outputs():
    assert float64_check.narrow(bf16([1.0]))
    assert float64_check.narrow(np.ones(2, np.float16))
    assert not float64_check.narrow(np.ones(2, np.float32))
    assert not float64_check.narrow(np.ones(2, np.int16))
    assert not float64_check.narrow(np.ones(2, np.complex64))


def test_narrow_outputs_judged_against_xla_partitioning():
    """Seed 8001266's numbers: a bf16 dot of 576 terms that cancel to 0.0596; one device
    (f32 inside) is 1e-4 off, shardpy's partitioning 0.028 and XLA's 0.06 (both round
    their partial dots to bf16 before the all_reduce)."""
    exact = np.array([0.0596], np.float64)
    xla = bf16([0.0])

    def judged(partitioned):
        return float64_check.judge_against_xla("out2", bf16(partitioned), xla, exact,
                                               0.0625, 0.0078125)

    j = judged([0.0312])  # closer to float64 than XLA's
    assert j.ok and "within bfloat16 rounding of XLA's own partitioning" in j.line, j.line
    assert judged([0.0039]).ok  # within bf16's tolerances of XLA's
    j = judged([0.5])  # 0.44 off: further than XLA's 0.06, 0.5 apart
    assert not j.ok and "beyond bfloat16 rounding of XLA's own partitioning" in j.line
    assert not float64_check.judge_against_xla("out2", bf16([np.nan]), xla, exact, 0.0625,
                                               0.0078125).ok


# ------------------------------------------------------------- the f64 program text


def as_f64(text: str) -> str:
    """The float32 program's text with its float element types (and the literals and
    custom call that name a float width) written for f64. (A batch norm's epsilon is an
    f32 attribute at any width.)"""
    for old, new in (("0xFF800000", "0xFFF0000000000000"),
                     ("0x7F800000", "0x7FF0000000000000"),
                     ("lapack_spotrf_ffi", "lapack_dpotrf_ffi"), ("f32", "f64")):
        text = text.replace(old, new)
    return re.sub(r"(epsilon = [-+.e0-9]+ : )f64", r"\1f32", text)


def test_f64_rendering_is_the_same_program(context):
    seen = ""
    for seed in range(300):
        text32 = generate.generate(seed).text
        text64 = generate.generate(seed, float_text="f64").text
        assert text64 == as_f64(text32), f"seed {seed}"
        generate.parse_module(text64, context)
        seen += text64
    # The seeds cover the spellings that are not element types.
    for spelling in ("0xFFF0000000000000", "0x7FF0000000000000", "lapack_dpotrf_ffi"):
        assert spelling in seen
    assert generate.generate(0).text == generate.generate(0, float_text="f32").text


def test_f64_rendering_is_undone_after_an_error(monkeypatch):
    def fails(self):
        raise RuntimeError("generator bug")

    monkeypatch.setattr(generate.Generator, "generate", fails)
    with pytest.raises(RuntimeError):
        generate.generate(0, float_text="f64")
    assert fuzz_text.float_text == "f32"
    with pytest.raises(ValueError):
        generate.generate(0, float_text="f16")


# ------------------------------------------------------------------------ end to end


@pytest.fixture(scope="module")
def runner():
    import run_fuzz

    return run_fuzz.Runner(generate.Features.from_spec(known_issues.DISABLED))


# Seed 8001266 with Features.bf16: out2 is a bf16 dot of 576 terms (|terms| up to ~30)
# that cancel to 0.0596, sharded over both contracted dims: the partial dots, rounded to
# bf16 before the all_reduce, leave shardpy 0.028 off and XLA's own partitioning 0.06;
# one device (f32 inside) 1e-4.
BF16_PARTIAL_DOTS_SEED = 8001266
# Seed 6202 with Features.bf16: a bf16 sum of 960 values that the one-device program
# adds up until it saturates (1,400 off the float64 sum; the partitioned one 350). Until
# the check counted bf16 as floating it was never judged: a mismatch.
BF16_SATURATING_SEED = 6202


@pytest.fixture(scope="module")
def bf16_runner():
    import run_fuzz

    features = generate.Features.from_spec(known_issues.DISABLED).with_(["bf16"])
    return run_fuzz.Runner(features)


@pytest.mark.parametrize("runner_name, seed, line", [
    ("runner", CANCELLING_SEED, "out0: within float32 rounding"),
    ("bf16_runner", BF16_SATURATING_SEED, "out2: within bfloat16 rounding"),
])
def test_rounding_passes_on_the_float64_check(request, runner_name, seed, line):
    outcome = request.getfixturevalue(runner_name).run_seed(seed)
    assert outcome.status == "pass", outcome.detail
    assert outcome.float64_checked
    assert outcome.detail.startswith(line), outcome.detail


def test_cancelling_dot_off_by_a_little_more_is_a_mismatch(runner, monkeypatch):
    """1e-3 off on a result of ~0.09: beyond 4x the one-device error (4.5e-5)."""
    run_per_device = runner.executor.run_per_device

    def slightly_wrong(*args, **kwargs):
        result = run_per_device(*args, **kwargs)
        result.outputs[0] = result.outputs[0] + np.float32(1e-3)
        return result

    monkeypatch.setattr(runner.executor, "run_per_device", slightly_wrong)
    outcome = runner.run_seed(CANCELLING_SEED)
    assert outcome.status == "mismatch", outcome.detail
    assert not outcome.float64_checked
    assert "out0: beyond float32 rounding" in outcome.detail


def test_bf16_partial_dots_pass_against_xla_partitioning(bf16_runner):
    outcome = bf16_runner.run_seed(BF16_PARTIAL_DOTS_SEED)
    assert outcome.status == "pass", outcome.detail
    assert outcome.detail.splitlines() == [
        line for line in outcome.detail.splitlines() if line.startswith("out2: ")]
    assert "out2: beyond bfloat16 rounding: partitioned error" in outcome.detail
    assert "out2: within bfloat16 rounding of XLA's own partitioning" in outcome.detail


@pytest.mark.parametrize("seed, index, delta, lines", [
    # Every element of out0 (values up to 3.5) 1.0 off: beyond bf16's tolerances and the
    # one-device run's rounding (out2 still passes).
    (BF16_SATURATING_SEED, 0, 1.0, ["out0: beyond bfloat16 rounding: partitioned error 1,",
                                    "out2: within bfloat16 rounding"]),
    # out2 0.25 further off (0.0596 expected): beyond the one-device run's rounding and
    # further from float64 than XLA's own partitioning.
    (BF16_PARTIAL_DOTS_SEED, 2, 0.25, ["out2: beyond bfloat16 rounding of XLA's own "
                                       "partitioning"]),
])
def test_bf16_output_off_is_a_mismatch(bf16_runner, monkeypatch, seed, index, delta, lines):
    run_per_device = bf16_runner.executor.run_per_device

    def wrong(*args, **kwargs):
        result = run_per_device(*args, **kwargs)
        out = result.outputs[index]
        result.outputs[index] = (out.astype(np.float32) + delta).astype(out.dtype)
        return result

    monkeypatch.setattr(bf16_runner.executor, "run_per_device", wrong)
    outcome = bf16_runner.run_seed(seed)
    assert outcome.status == "mismatch", outcome.detail
    for line in lines:
        assert line in outcome.detail, outcome.detail
