"""Inputs and numpy's outputs for xla_manual_slice_of_dynamic_slice_folded.mlir:
    python manual_slice_of_dynamic_slice_numpy.py IN.npz EXPECTED.npz
The dynamic_slice's starts (0, 19, 18) clamp to (0, 2, 3); device c of the manual
computation holds column c of x[:, 2:6, 3:5], and the result puts the two side by
side along dim 1."""
import sys

import numpy as np

x = np.random.default_rng(5).standard_normal((8, 6, 5)).astype(np.float32)
block = x[:, 2:6, 3:5]
np.savez(sys.argv[1], arg0=x)
np.savez(sys.argv[2], out0=np.concatenate([block[:, :, 0:1], block[:, :, 1:2]], axis=1))
