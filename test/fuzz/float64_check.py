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

import numpy as np

from shardpy.runtime.arrays import (ROUNDING_FACTOR, Judgement,  # noqa: F401
                                    float64_judgeable as applies, judge_in_float64 as judge)


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
