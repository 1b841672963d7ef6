"""shardpy-run over several local processes on JAX's distributed runtime
(runtime/distributed.py, issue 17): 2 processes x 4 CPU devices, collectives through
gloo. Every test starts its own processes on localhost and ends them.

--check's reference is XLA's partitioner on the same devices (each process compares its
blocks). Results are compared with one process of the same cluster kind (`--coordinator
--process-id 0 --num-processes 1`: 8 devices, gloo too): bit for bit. (Against the
usual single-process run they differ in the last bits of float sums: XLA:CPU's
in-process all-reduce adds in another order than gloo's.)
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "examples" / "transformer_block_fwd_bwd_mesh2x4.mlir"
FUZZ = ROOT / "test" / "fuzz"
# Fuzz seeds of 8-device meshes whose programs hold collectives (the first: a manual
# computation with explicit all_to_all / all_gather / all_reduce in its body).
FUZZ_SEEDS = (6000226, 1005, 1011)


def shardpy_run(*args, timeout=240) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    return subprocess.run([sys.executable, "-m", "shardpy.tools.shardpy_run", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


def one_process(path: Path, out: Path, *extra) -> subprocess.CompletedProcess:
    """`path` on one process of the same kind: 8 devices, gloo collectives."""
    from shardpy.runtime.distributed import free_port

    return shardpy_run(path, "--coordinator", f"localhost:{free_port()}", "--process-id", 0,
                       "--num-processes", 1, "--output", out, *extra)


def assert_same_npz(a: Path, b: Path) -> None:
    with np.load(a) as x, np.load(b) as y:
        assert sorted(x.files) == sorted(y.files)
        for name in x.files:
            np.testing.assert_array_equal(x[name], y[name], err_msg=name)


def test_two_processes_check_the_demo_and_match_one(tmp_path):
    two = shardpy_run(DEMO, "--check", "--num-processes", 2, "--output", tmp_path / "two.npz")
    assert two.returncode == 0, two.stdout[-2000:] + two.stderr[-2000:]
    assert "check: PASS" in two.stdout
    assert "(process 0 holds" in two.stdout
    one = one_process(DEMO, tmp_path / "one.npz")
    assert one.returncode == 0, one.stderr[-2000:]
    assert_same_npz(tmp_path / "one.npz", tmp_path / "two.npz")


def test_two_processes_map_inputs_from_a_shared_npz(tmp_path):
    """--inputs (np.savez, uncompressed): each process maps the file and reads only its
    devices' blocks for the partitioned run; the result is the one process's."""
    from jaxlib.mlir import ir

    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.runtime import arrays, executor

    module = ir.Module.parse(DEMO.read_text(), make_context())
    sig = executor.signature(module.operation)
    inputs = arrays.random_inputs([v.type for v in sig.args], 3)
    np.savez(tmp_path / "in.npz", **{f"arg{i}": x for i, x in enumerate(inputs)})
    two = shardpy_run(DEMO, "--check", "--inputs", tmp_path / "in.npz", "--num-processes", 2,
                      "--output", tmp_path / "two.npz")
    assert two.returncode == 0, two.stdout[-2000:] + two.stderr[-2000:]
    assert "check: PASS" in two.stdout
    one = one_process(DEMO, tmp_path / "one.npz", "--inputs", tmp_path / "in.npz")
    assert one.returncode == 0, one.stderr[-2000:]
    assert_same_npz(tmp_path / "one.npz", tmp_path / "two.npz")


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_two_processes_run_fuzz_programs_as_one(seed, tmp_path):
    sys.path.insert(0, str(FUZZ))
    import generate

    # (without `nans`: across processes --check compares with XLA's partitioner, whose
    # float max/min all_reduce drops the NaN that shardpy's keeps, see nans.py)
    program = generate.generate(seed, generate.Features().without(["nans"]))
    assert np.prod([s for _, s in program.mesh]) == 8
    path = tmp_path / f"seed_{seed}.mlir"
    path.write_text(program.text)
    two = shardpy_run(path, "--check", "--num-processes", 2, "--output", tmp_path / "two.npz")
    assert two.returncode == 0, two.stdout[-2000:] + two.stderr[-2000:]
    assert "check: PASS" in two.stdout
    one = one_process(path, tmp_path / "one.npz")
    assert one.returncode == 0, one.stderr[-2000:]
    assert_same_npz(tmp_path / "one.npz", tmp_path / "two.npz")


# Rows on "data" (one half per process), 6 columns unevenly over "model"=4 (blocks
# of 2, 2, 2 and none): XLA's boundary takes them padded to 8.
UNEVEN = """
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%a: tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
    -> (tensor<10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
        tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}) {
  %t = stablehlo.tanh %a : tensor<10x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %c = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0] : (tensor<10x6xf32>, tensor<f32>) -> tensor<6xf32>
  return %t, %c : tensor<10x6xf32>, tensor<6xf32>
}
"""


def test_the_reference_runs_across_the_processes_and_a_wrong_part_fails(tmp_path):
    """--check's reference is XLA's partitioner run across the processes (no process
    holds a whole sharded array), here with uneven blocks; a part that is wrong on one
    process only (an --expected file off in one element of process 1's rows) fails the
    check on all of them."""
    path = tmp_path / "uneven.mlir"
    path.write_text(UNEVEN)
    two = shardpy_run(path, "--check", "--num-processes", 2, "--output", tmp_path / "out.npz")
    assert two.returncode == 0, two.stdout[-2000:] + two.stderr[-2000:]
    assert "reference: XLA's SPMD partitioner on the same devices" in two.stdout
    assert "out0: float32[10, 6] (process 0 holds 30 of 60 elements)" in two.stdout
    with np.load(tmp_path / "out.npz") as archive:
        outputs = {k: archive[k] for k in archive.files}
    one = one_process(path, tmp_path / "one.npz", "--check")
    assert one.returncode == 0, one.stderr[-2000:]
    assert_same_npz(tmp_path / "one.npz", tmp_path / "out.npz")
    # The one-device reference, which every process then runs whole, agrees.
    one_device = shardpy_run(path, "--check", "--check-against", "one-device",
                             "--num-processes", 2)
    assert one_device.returncode == 0, one_device.stdout[-2000:] + one_device.stderr[-2000:]
    assert "check: PASS" in one_device.stdout and "reference: XLA" not in one_device.stdout
    outputs["out0"][9, 5] += 1.0  # process 1's rows
    np.savez(tmp_path / "wrong.npz", **outputs)
    wrong = shardpy_run(path, "--expected", tmp_path / "wrong.npz", "--num-processes", 2)
    assert wrong.returncode == 1
    assert "out0: max abs error 1 MISMATCH" in wrong.stdout  # process 0 reports it too
    assert "out1: max abs error 0 ok" in wrong.stdout
    assert "check: FAIL" in wrong.stdout


def test_one_device_runs_are_refused_across_processes():
    for option in ("--reference", "--against-xla"):
        result = shardpy_run(DEMO, option, "--num-processes", 2)
        assert result.returncode == 1
        assert f"{option} runs in one process; with several, --check compares with " \
               f"XLA's partitioner" in result.stderr


def test_a_process_that_dies_stops_the_others(tmp_path):
    """Process 1 killed mid-run: the launcher stops process 0 (which would wait for it
    in a collective) and names the dead one, well before any timeout."""
    cmd = [sys.executable, "-m", "shardpy.tools.shardpy_run", str(DEMO), "--num-processes",
           "2", "--benchmark", "100000"]
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    launcher = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
    try:
        victim = None
        deadline = time.monotonic() + 120
        while victim is None and time.monotonic() < deadline:
            time.sleep(0.5)
            children = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(launcher.pid)],
                                      capture_output=True, text=True).stdout.splitlines()
            victim = next((int(line.split()[0]) for line in children
                           if "--process-id 1" in line), None)
        assert victim is not None, "process 1 never started"
        time.sleep(15)  # joined and running the benchmark by now
        os.kill(victim, signal.SIGKILL)
        _, err = launcher.communicate(timeout=60)
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
    assert launcher.returncode != 0
    assert "process 1 was killed by signal 9" in err


def test_devices_that_do_not_split_evenly_are_an_error():
    result = shardpy_run(DEMO, "--num-processes", 3)
    assert result.returncode == 1
    assert "the program's 8 devices do not split evenly over 3 processes" in result.stderr


@pytest.mark.parametrize("process_id,message", [
    # Process 1 finds nothing listening at the coordinator's address.
    (1, "process 1: could not reach the coordinator at localhost:"),
    # Process 0 hosts the coordinator; process 1 never comes.
    (0, "process 0: the cluster at localhost:"),
])
def test_a_cluster_that_does_not_form_is_an_error_within_the_timeout(process_id, message):
    from shardpy.runtime.distributed import free_port

    start = time.monotonic()
    result = shardpy_run(DEMO, "--coordinator", f"localhost:{free_port()}", "--process-id",
                         process_id, "--num-processes", 2, "--cluster-timeout", 3)
    assert result.returncode == 1
    assert message in result.stderr
    assert "within 3 s" in result.stderr
    assert time.monotonic() - start < 60
