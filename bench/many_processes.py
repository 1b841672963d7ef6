"""The same module on 1, 2 and 4 local processes (issue 17): outputs bit for bit, times.

    python bench/many_processes.py [MODULE] [--processes 1,2,4]

Each count runs `shardpy-run MODULE --check --output ...` as one cluster on localhost
(1: `--coordinator --process-id 0 --num-processes 1`, so that every run's collectives go
through gloo; more: `--num-processes N`). Prints per count: the check's verdict, the
wall time of the whole launch (process start, partitioning in every process, jax's
distributed start-up, compile, run, check) and whether the outputs equal the 1-process
run's bit for bit. CPU host devices: the module's device count over the processes.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "examples" / "transformer_block_fwd_bwd_mesh2x4.mlir"


def run(module: Path, processes: int, out: Path) -> tuple[bool, float, str]:
    from shardpy.runtime.distributed import free_port

    cluster = (["--num-processes", str(processes)] if processes > 1 else
               ["--coordinator", f"localhost:{free_port()}", "--process-id", "0",
                "--num-processes", "1"])
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "shardpy.tools.shardpy_run", str(module),
                           "--check", "--output", str(out), *cluster],
                          capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    return done.returncode == 0 and "check: PASS" in done.stdout, seconds, done.stderr


def same(a: Path, b: Path) -> bool:
    with np.load(a) as x, np.load(b) as y:
        return sorted(x.files) == sorted(y.files) and all(
            np.array_equal(x[k], y[k]) for k in x.files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--processes", default="1,2,4")
    args = parser.parse_args()
    counts = [int(c) for c in args.processes.split(",")]
    print(f"{args.module.name}")
    print("| processes | check | wall s | outputs = 1 process |")
    print("|---:|---|---:|---|")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        first = None
        for n in counts:
            out = Path(tmp) / f"out_{n}.npz"
            ok, seconds, err = run(args.module, n, out)
            identical = "-" if first is None or not ok else ("yes" if same(first, out)
                                                              else "NO")
            first = first or (out if ok else None)
            failed |= not ok or identical == "NO"
            print(f"| {n} | {'PASS' if ok else 'FAIL'} | {seconds:.1f} | {identical} |")
            if not ok:
                print(err[-2000:], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
