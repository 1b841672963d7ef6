#!/usr/bin/env python3
"""Lower the programs of test/python/frontend/test_jit_programs.py as jax.jit lowers them,
one module per program, for compare_propagation.py's --corpus:

    python bench/lower_jit_programs.py /tmp/jit_programs
    python bench/compare_propagation.py --corpus /tmp/jit_programs

Those are programs a JAX user writes (linalg, FFT, sorts, loops, indexing, convolutions,
attention, optax...) on the 2x4 ("data", "model") mesh: a corpus of other shapes than
bench/corpus's models for checking propagation against native Shardy.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "test" / "python" / "frontend" / "test_jit_programs.py"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="directory for the .mlir files")
    args = parser.parse_args(argv)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    sys.path.insert(0, str(ROOT / "python"))
    from shardpy.ir.jaxlib_bridge import request_host_devices

    request_host_devices(8)
    import jax
    import numpy as np
    from jax.sharding import AxisType, NamedSharding, PartitionSpec

    spec = importlib.util.spec_from_file_location("test_jit_programs", PROGRAMS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    module._MESH[:] = [mesh]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)

    def rand(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def put(array, *axes):
        return jax.device_put(array, NamedSharding(mesh, PartitionSpec(*axes)))

    for name, make in sorted(module.CASES.items()):
        fun, arguments = make(put, rand)
        (out / f"{name}.mlir").write_text(jax.jit(fun).lower(*arguments).as_text())
    print(f"{len(module.CASES)} modules in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
