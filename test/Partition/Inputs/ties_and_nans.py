"""Write inputs full of ties for the sort/top_k/argmax tests: an .npz with arg0, arg1, ...

    python ties_and_nans.py OUT.npz f32:8x64 i32:4 ...

Floats are drawn from a handful of values (so most of them are equal to others),
including +-0, +-inf and NaNs of both signs; integers from a small range. Seeded:
the same arguments give the same file.
"""
import sys

import numpy as np

FLOATS = np.array([-np.inf, -2.0, -1.0, -0.0, 0.0, 1.0, 2.0, np.inf, np.nan], np.float32)
DTYPES = {"f32": np.float32, "i32": np.int32, "ui32": np.uint32}


def main(out: str, *specs: str) -> None:
    rng = np.random.default_rng(0)
    arrays = {}
    for i, spec in enumerate(specs):
        dtype, _, shape = spec.partition(":")
        shape = tuple(int(s) for s in shape.split("x")) if shape else ()
        if dtype == "f32":
            values = rng.choice(FLOATS, size=shape, p=[.04, .18, .18, .1, .1, .18, .18, .04,
                                                       .0]).astype(np.float32)
            nans = rng.random(shape) < 0.03
            signs = np.where(rng.random(shape) < 0.5, 1.0, -1.0).astype(np.float32)
            values[nans] = np.copysign(np.float32(np.nan), signs)[nans]
        else:
            values = rng.integers(0, 4, shape).astype(DTYPES[dtype])
        arrays[f"arg{i}"] = values
    np.savez(out, **arrays)


if __name__ == "__main__":
    main(*sys.argv[1:])
