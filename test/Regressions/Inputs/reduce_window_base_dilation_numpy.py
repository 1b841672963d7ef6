"""Inputs and numpy's expected result for xla_reduce_window_base_dilation_reference.mlir:
an add reduce_window of a 4x24x24 array with base dilation [2, 1, 1], padding
[[2, 7], [2, 6], [1, 21]], window [1, 2, 1] and strides [1, 2, 3], computed in float64.

    python reduce_window_base_dilation_numpy.py IN.npz EXPECTED.npz
"""
import sys

import numpy as np

x = np.random.default_rng(0).standard_normal((4, 24, 24)).astype(np.float32)
dilated = np.zeros((7, 24, 24))
dilated[::2] = x
padded = np.pad(dilated, [(2, 7), (2, 6), (1, 21)])  # 16x32x46
# Windows of 1x2x1 at strides 1x2x3: the two rows of each window, summed.
out = padded[:, 0::2, ::3] + padded[:, 1::2, ::3]
assert out.shape == (16, 16, 16), out.shape
np.savez(sys.argv[1], arg0=x)
np.savez(sys.argv[2], out0=out.astype(np.float32))
