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
                                    float64_judgeable as applies, is_floating,
                                    judge_in_float64 as judge)


def same_discrete_outputs(reference: list[np.ndarray], exact: list[np.ndarray]) -> bool:
    """Whether the float64 program made the same integer and boolean outputs as the
    reference (float outputs of any width, bf16 too, and complex ones are not compared):
    if not, widening changed a discrete decision (a compare, a convert to int) and the
    float64 run is no reference for the float outputs."""
    if len(reference) != len(exact):
        return False
    return all(is_floating(r.dtype) or np.iscomplexobj(r) or
               (r.shape == e.shape and r.dtype == e.dtype and np.array_equal(r, e))
               for r, e in zip(reference, exact))


def widen(inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The runs' inputs for the program printed with f64: every float array (f32, and
    bf16 or f16 in a bf16 program) as float64, complex64 as complex128 (exactly the
    same values); others as they are."""
    def wide(x: np.ndarray) -> np.ndarray:
        if x.dtype == np.complex64:
            return x.astype(np.complex128)
        if is_floating(x.dtype) and x.dtype != np.float64:
            return x.astype(np.float64)
        return x

    return [wide(x) for x in inputs]


def narrow(output: np.ndarray) -> bool:
    """A float output narrower than f32 (bf16, f16): rounded to 8 or 11 bits at every
    partial sum the partitioned program adds across devices."""
    return is_floating(output.dtype) and not np.iscomplexobj(output) and \
        output.dtype.itemsize < 4


def judge_against_xla(name: str, partitioned: np.ndarray, xla: np.ndarray,
                      exact: np.ndarray, rtol: float, atol: float) -> Judgement:
    """A narrow float output beyond the one-device run's rounding (XLA:CPU adds a bf16
    dot or reduce up in f32 on one device; partitioned, each device's partial result
    is rounded to bf16 before the all_reduce adds them), judged against XLA's own
    partitioning of the same program, which rounds its partial sums too: it passes
    when it is within the type's tolerances of XLA's output, or no further from the
    float64 run than XLA's is (+ atol)."""
    from shardpy.runtime import arrays

    if not applies(partitioned, xla) or exact.shape != xla.shape:
        return Judgement(False, f"{name}: no judgement against XLA's partitioning (not "
                                f"finite floats of one shape)")
    exact = exact.astype(np.float64)
    err_part, err_xla = arrays.max_error(partitioned, exact), arrays.max_error(xla, exact)
    apart = arrays.compare(name, partitioned, xla, rtol, atol)
    errors = (f"partitioned error {err_part:.2g}, XLA-partitioned error {err_xla:.2g} "
              f"against float64, {apart.max_abs_error:.2g} apart")
    width = np.dtype(xla.dtype).name
    if apart.ok or err_part <= err_xla + atol:
        return Judgement(True, f"{name}: within {width} rounding of XLA's own "
                               f"partitioning: {errors}")
    return Judgement(False, f"{name}: beyond {width} rounding of XLA's own partitioning: "
                            f"{errors}")
