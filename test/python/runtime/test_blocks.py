"""runtime/blocks.py: devices holding the same block must agree; NaN agrees with NaN in
every float type (bf16 too: numpy does not count ml_dtypes' bfloat16 as inexact, and
before this test a NaN in a replicated bf16 result read as replicas disagreeing)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from shardpy.runtime.blocks import _max_difference


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_nan_and_inf_agree_with_themselves(dtype):
    a = np.array([np.nan, np.inf, -np.inf, 1.0, -0.0], dtype)
    assert _max_difference(a, a.copy()) == 0.0
    b = a.copy()
    b[3] = 2.0
    assert _max_difference(a, b) == 1.0
    b[0] = 0.0  # NaN against a number
    assert _max_difference(a, b) == np.inf


def test_integers_agree_exactly():
    a = np.array([1, 2, 3], np.int32)
    assert _max_difference(a, a.copy()) == 0.0
    assert _max_difference(a, a + 1) == np.inf
