"""Judge float outputs that fail the float32 comparison against an exact float64 run.

A partitioned program sums in another order than the one-device program, and an output
that is the small difference of large terms (a dot of 576 terms summing to ~0.09)
carries rounding error of the terms' size in both runs: fixed tolerances cannot tell
that noise from a bug. So run_fuzz runs the same program in float64 (generate.py
prints it with f64; the same inputs, widened) and asks whether the partitioned result
is about as close to it as XLA's own one-device float32 result.

This does not hide bugs: a missing reduction or a misplaced shard is off by the
values' size, far above 4x the one-device run's rounding error.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# The partitioned result may be this many times further from float64 than the
# one-device float32 result (both round; they just sum in different orders).
ROUNDING_FACTOR = 4.0


@dataclass
class Judgement:
    ok: bool
    line: str


def applies(partitioned: np.ndarray, reference: np.ndarray) -> bool:
    """Whether a failed float32 comparison of this output may be judged in float64:
    floats of the same shape and dtype, all finite (NaN/inf differences, integer and
    boolean outputs and shape mismatches stay failures)."""
    return (partitioned.shape == reference.shape and partitioned.dtype == reference.dtype
            and np.issubdtype(reference.dtype, np.floating)
            and bool(np.isfinite(partitioned).all() and np.isfinite(reference).all()))


def judge(name: str, partitioned: np.ndarray, reference: np.ndarray, exact: np.ndarray,
          rtol: float, atol: float) -> Judgement:
    """Pass `name` when the partitioned result is within the tolerances of the float64
    result, or at most ROUNDING_FACTOR times as far from it as the one-device float32
    reference is."""
    if not applies(partitioned, reference) or exact.shape != reference.shape \
            or not np.issubdtype(exact.dtype, np.floating) or not np.isfinite(exact).all():
        return Judgement(False, f"{name}: no float64 judgement (not finite floats of "
                                f"one shape)")
    exact = exact.astype(np.float64)
    err_part = _max_error(partitioned, exact)
    err_ref = _max_error(reference, exact)
    scale = float(np.abs(exact).max()) if exact.size else 0.0
    errors = (f"partitioned error {err_part:.2g}, one-device error {err_ref:.2g} "
              f"against float64")
    if err_part <= atol + rtol * scale or err_part <= ROUNDING_FACTOR * err_ref:
        return Judgement(True, f"{name}: within float32 rounding: {errors}")
    return Judgement(False, f"{name}: beyond float32 rounding: {errors}")


def _max_error(actual: np.ndarray, exact: np.ndarray) -> float:
    if actual.size == 0:
        return 0.0
    return float(np.abs(actual.astype(np.float64) - exact).max())


def same_discrete_outputs(reference: list[np.ndarray], exact: list[np.ndarray]) -> bool:
    """Whether the float64 program made the same integer and boolean outputs as the
    float32 reference: if not, widening changed a discrete decision (a compare, a
    convert to int) and the float64 run is no reference for the float outputs."""
    if len(reference) != len(exact):
        return False
    return all(np.issubdtype(r.dtype, np.floating) or
               (r.shape == e.shape and r.dtype == e.dtype and np.array_equal(r, e))
               for r, e in zip(reference, exact))


def widen(inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The float32 runs' inputs, float32 arrays as float64 (exactly: the same values)."""
    return [x.astype(np.float64) if x.dtype == np.float32 else x for x in inputs]
