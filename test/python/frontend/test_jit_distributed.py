"""shardpy.jit under jax.distributed (issue 17, item 2): two local processes of 4 CPU
devices each run Inputs/jit_distributed_worker.py (arrays from make_array_from_callback
and make_array_from_process_local_data); in each, shardpy.jit's outputs have
jax.jit's shardings and values on that process's shards. The test starts both
processes and always ends them."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

WORKER = Path(__file__).resolve().parent / "Inputs" / "jit_distributed_worker.py"


def test_shardpy_jit_matches_jax_jit_across_two_processes():
    from shardpy.runtime.distributed import free_port

    port = str(free_port())
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    procs = [subprocess.Popen([sys.executable, str(WORKER), str(i), port], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    try:
        outs = [p.communicate(timeout=240) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for i, (p, (out, err)) in enumerate(zip(procs, outs)):
        assert p.returncode == 0, err[-2000:]
        assert f"process {i}: shardings equal True, max abs error 0.0" in out, out + err[-1000:]
