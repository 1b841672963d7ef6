"""Writes the .npz files of test/Run/bf16.test: inputs for Inputs/bf16_dot_scatter.mlir
as np.savez stores ml_dtypes arrays (raw 2-byte records), the expected outputs computed
in float64 and rounded once to bfloat16 (a correct answer that XLA's rounding differs
from in the last bit), a wrong answer (the dot missing half its contraction, as a
partial sum left unreduced would be), and float32 inputs (exact bfloat16 values, or
not)."""
import sys

import ml_dtypes
import numpy as np

BF16 = ml_dtypes.bfloat16


def main(out: str) -> None:
    rng = np.random.default_rng(7)
    a = rng.standard_normal((16, 256)).astype(BF16)
    b = rng.standard_normal((256, 32)).astype(BF16)
    t = rng.standard_normal((16, 32)).astype(BF16)
    i = rng.integers(0, 16, (6, 1)).astype(np.int32)
    u = rng.standard_normal((6, 32)).astype(BF16)
    np.savez(f"{out}.in.npz", arg0=a, arg1=b, arg2=t, arg3=i, arg4=u)  # raw |V2 records
    f = [x.astype(np.float64) for x in (a, b, t, u)]
    dot = f[0] @ f[1]
    scattered = f[2].copy()
    for k, row in enumerate(i[:, 0]):
        scattered[row] += f[3][k]

    def tagged(name, **arrays):
        entries = {}
        for key, x in arrays.items():
            entries[key] = x.astype(BF16).view(np.uint16)
            entries[key + ".dtype"] = np.array("bfloat16")
        np.savez(name, **entries)

    tagged(f"{out}.expected.npz", out0=dot, out1=scattered)
    tagged(f"{out}.wrong.npz", out0=f[0][:, :128] @ f[1][:128], out1=scattered)
    np.savez(f"{out}.f32.npz", arg0=a.astype(np.float32), arg1=b.astype(np.float32),
             arg2=t.astype(np.float32), arg3=i, arg4=u.astype(np.float32))
    np.savez(f"{out}.f32_inexact.npz", arg0=a.astype(np.float32) + np.float32(1e-3),
             arg1=b, arg2=t, arg3=i, arg4=u)


if __name__ == "__main__":
    main(sys.argv[1])
