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


def test_cancelling_dot_passes_on_the_float64_check(runner):
    outcome = runner.run_seed(CANCELLING_SEED)
    assert outcome.status == "pass", outcome.detail
    assert outcome.float64_checked
    assert outcome.detail.startswith("out0: within float32 rounding"), outcome.detail


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
