"""Runs over several processes on JAX's distributed runtime (shardpy-run, issue 17).

Two ways in, as with `jax.distributed.initialize`:

    shardpy-run FILE --check --num-processes 2
        launches 2 local processes (a coordinator on a free localhost port) and waits
        for them: `launch`.
    shardpy-run FILE --check --coordinator HOST:PORT --process-id I --num-processes N
        joins a cluster as process I (`--coordinator auto`: the cluster jax detects from
        the environment, e.g. SLURM or Open MPI): `join`.

Each process partitions the module itself (the pipeline is deterministic), owns
num_devices / N of the mesh's devices (CPU: that many host devices, collectives
through gloo) and places only the blocks of its own devices. Its outputs are the
blocks of its own devices: a check compares them with the matching parts of the
reference (by default XLA's partitioner run on the same devices with the same layouts,
so that no process holds a whole sharded array), and the processes then agree on the
verdict (the per-output errors are all-gathered, a few numbers). Whole outputs are
assembled only for `--output`, on process 0 only (`gather_to_first`), and for an output
with unreduced axes, whose partial sums live on several processes.

Failures a user meets get one error naming the process, never a hang: a coordinator
that does not answer (bounded by --cluster-timeout), a mesh whose devices do not split
evenly over the processes, a cluster with another device count, and (launch) a process
that dies: the others are stopped and its last lines shown.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..ir.diagnostics import ShardpyError
from .blocks import RunResult, assemble_global, from_blocks

DEFAULT_TIMEOUT_S = 60


@dataclass(frozen=True)
class Cluster:
    coordinator: str | None   # HOST:PORT; None: detected by jax from the environment
    num_processes: int | None
    process_id: int | None
    timeout_s: int = DEFAULT_TIMEOUT_S

    @property
    def name(self) -> str:
        return f"process {self.process_id}" if self.process_id is not None else "this process"


# --------------------------------------------------------------------------- launch


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def launch(argv: Sequence[str], num_processes: int, timeout_s: int) -> int:
    """Run shardpy-run `argv` as `num_processes` local processes of one cluster; their
    exit status (0 when all pass). Process 0's output is shown as it comes; another
    process's only when it fails. A process that exits with an error stops the rest."""
    if num_processes < 1:
        raise ShardpyError(f"--num-processes must be at least 1, not {num_processes}")
    coordinator = f"localhost:{free_port()}"
    procs, logs = [], []
    for i in range(num_processes):
        cmd = [sys.executable, "-m", "shardpy.tools.shardpy_run", *argv,
               "--coordinator", coordinator, "--process-id", str(i),
               "--num-processes", str(num_processes), "--cluster-timeout", str(timeout_s)]
        log = None if i == 0 else tempfile.TemporaryFile(mode="w+")
        logs.append(log)
        procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT if log
                                      else None, env=dict(os.environ)))
    try:
        return _wait(procs, logs)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for log in logs:
            if log is not None:
                log.close()


GRACE_S = 10  # how long the others may take to finish once one process failed


def _wait(procs, logs) -> int:
    """0 when every process exits 0. When one fails, the others get GRACE_S to end on
    their own (a failed check: all of them agree on it and exit 1 together); any
    still running then are stopped, and the first failure is named."""
    first = None
    deadline = None
    while any(p.poll() is None for p in procs):
        if first is None:
            first = next((i for i, p in enumerate(procs) if p.poll() not in (None, 0)), None)
            if first is not None:
                deadline = time.monotonic() + GRACE_S
        if deadline is not None and time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if first is None:
        first = next((i for i, p in enumerate(procs) if p.poll() not in (None, 0)), None)
    if first is None:
        return 0
    stopped = [i for i, p in enumerate(procs) if p.poll() is None]
    for i in stopped:
        procs[i].kill()
        procs[i].wait()
    for i, log in enumerate(logs):
        if log is not None and procs[i].returncode not in (0, None) and i not in stopped:
            log.seek(0)
            tail = log.read().splitlines()[-15:]
            sys.stderr.write("".join(f"[process {i}] {line}\n" for line in tail))
    code = procs[first].returncode
    if stopped or code not in (0, 1):
        died = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        sys.stderr.write(f"shardpy-run: error: process {first} {died}"
                         + (f"; stopped process(es) {', '.join(map(str, stopped))}, still "
                            f"running {GRACE_S} s later" if stopped else "") + "\n")
    return code if code > 0 else 1


# --------------------------------------------------------------------------- join


def join(cluster: Cluster, num_devices: int, platform: str) -> None:
    """Start jax's distributed runtime for this process, owning num_devices / N of the
    mesh's devices. Call before any backend starts."""
    from ..ir.jaxlib_bridge import request_host_devices

    n = cluster.num_processes
    if n is not None and num_devices % n:
        raise ShardpyError(f"{cluster.name}: the program's {num_devices} devices do not "
                           f"split evenly over {n} processes")
    import jax

    if platform == "cpu":
        if n is not None:
            request_host_devices(num_devices // n)
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    where = cluster.coordinator or "(from the environment)"
    if cluster.coordinator and cluster.process_id not in (0, None):
        _wait_for_coordinator(cluster)
    # jax aborts the process (a fatal log, no exception) when the cluster does not
    # form in time; this watchdog says so first, naming the process.
    watchdog = threading.Timer(cluster.timeout_s, _give_up, (
        f"{cluster.name}: the cluster at {where} did not form within {cluster.timeout_s} s "
        f"(not every one of the {cluster.num_processes or '?'} processes joined)",))
    watchdog.daemon = True
    watchdog.start()
    try:
        jax.distributed.initialize(
            cluster.coordinator, cluster.num_processes, cluster.process_id,
            initialization_timeout=cluster.timeout_s + 30,
            heartbeat_timeout_seconds=max(10, cluster.timeout_s))
    except Exception as err:  # noqa: BLE001 - jax's own message says what failed
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ShardpyError(f"{cluster.name}: could not join the cluster at {where}: "
                           f"{first[:300]}") from None
    finally:
        watchdog.cancel()
    found = len(jax.devices())
    if found != num_devices:
        raise ShardpyError(f"{cluster.name}: the cluster has {found} devices "
                           f"({jax.process_count()} processes) but the program needs "
                           f"{num_devices}")


def _wait_for_coordinator(cluster: Cluster) -> None:
    """Connect to the coordinator's port until it answers or the timeout passes."""
    host, _, port = cluster.coordinator.rpartition(":")
    deadline = time.monotonic() + cluster.timeout_s
    while True:
        try:
            with socket.create_connection((host, int(port)), timeout=1.0):
                return
        except (OSError, ValueError) as err:
            if time.monotonic() > deadline or isinstance(err, ValueError):
                raise ShardpyError(f"{cluster.name}: could not reach the coordinator at "
                                   f"{cluster.coordinator} within {cluster.timeout_s} s "
                                   f"({err})") from None
            time.sleep(0.2)


def _give_up(message: str) -> None:
    sys.stderr.write(f"shardpy-run: error: {message}\n")
    sys.stderr.flush()
    os._exit(1)


def is_multi_process() -> bool:
    if "jax" not in sys.modules:
        return False
    import jax

    return jax.process_count() > 1


def process_index() -> int:
    import jax

    return jax.process_index() if is_multi_process() else 0


# --------------------------------------------------------------------------- results


def local_devices(devices: Sequence) -> list[int]:
    """Logical indices of `devices` (partition i runs on devices[i]) this process owns."""
    import jax

    me = jax.process_index()
    return [i for i, d in enumerate(devices) if d.process_index == me]


def gather_rows(local_rows: np.ndarray, local: Sequence[int], num_devices: int) -> np.ndarray:
    """Every device's rows [num_devices, ...] on every process, from each process's
    `local_rows` (rows of the logical devices `local`)."""
    from jax.experimental import multihost_utils

    rows = np.asarray(multihost_utils.process_allgather(local_rows, tiled=False))
    indices = np.asarray(multihost_utils.process_allgather(np.asarray(local), tiled=False))
    out = np.zeros((num_devices, *local_rows.shape[1:]), local_rows.dtype)
    for p in range(rows.shape[0]):
        for k, d in enumerate(indices[p]):
            out[int(d)] = rows[p][k]
    return out


def agree(values: Sequence[float]) -> list[float]:
    """The largest of each value over all processes (errors, divergences)."""
    from jax.experimental import multihost_utils

    mine = np.asarray(values, np.float64).reshape(1, -1)
    return list(np.asarray(multihost_utils.process_allgather(mine, tiled=True)).max(axis=0))


def assemble_local(stacked: Sequence[np.ndarray], local_sig, global_sig, num_devices: int,
                   compile_seconds: float):
    """A RunResult from this process's blocks (`stacked`: per output, its devices' rows
    stacked in device order): outputs whole where this process's devices hold them,
    zero elsewhere, with `covered` saying which is which. Outputs with unreduced axes
    are gathered whole (their partial sums may live on other processes)."""
    import jax


    local = local_devices(jax.devices()[:num_devices])
    outputs, divergence, covered, parts = [], [], [], []
    for block, lv, gv in zip(stacked, local_sig.results, global_sig.results):
        mine = from_blocks(block, lv.type.shape, len(local))
        sharding, shape = lv.sharding, gv.type.shape
        parts.append(None)
        if sharding is not None and sharding.unreduced:
            assembled = assemble_global(gather_rows(mine, local, num_devices), sharding, shape)
            mask = np.ones(shape, bool)
        else:
            parts[-1] = (mine, sharding, shape)
            rows = np.zeros((num_devices, *mine.shape[1:]), mine.dtype)
            rows[local] = mine
            assembled = assemble_global(rows, sharding, shape, present=local)
            mask = np.zeros(shape, bool)
            for d in local:
                slices = (tuple(slice(0, n) for n in shape) if sharding is None
                          else sharding.device_slices(shape, d))
                if slices is not None:
                    mask[slices] = True
        outputs.append(assembled.array)
        divergence.append(assembled.replica_divergence)
        covered.append(mask)
    return RunResult(outputs, divergence, compile_seconds, covered=covered, parts=parts)


def gather_to_first(result: RunResult, num_devices: int) -> list[np.ndarray] | None:
    """The whole outputs of a run across processes, assembled on process 0 only (the
    others return None and never hold more than their own blocks).

    The rows of the devices process 0 lacks travel by XLA collectives: a program that
    rotates every device's row by m places (m: process 0's device count;
    collective_permute through jax's ppermute), run until process 0's devices have
    seen every row it needs; each run moves one row per device, so no device holds
    more than two and the host of process 0 reads them as they pass. With processes
    owning consecutive devices that is N - 1 runs for N processes. Every process
    works out the same count from the device-to-process map, as a collective needs."""
    import jax

    devices = jax.devices()[:num_devices]
    first = [i for i, d in enumerate(devices) if d.process_index == 0]
    me = jax.process_index()
    whole = []
    for out, part in zip(result.outputs, result.parts):
        if part is None:  # already whole everywhere (unreduced: gathered to sum)
            whole.append(out if me == 0 else None)
            continue
        mine, sharding, shape = part
        wanted = _rows_to_fetch(sharding, shape, first, num_devices)
        rows = _rotate_to_first(mine, devices, first, wanted) if wanted else {}
        if me != 0:
            whole.append(None)
            continue
        full = np.zeros((num_devices, *mine.shape[1:]), mine.dtype)
        full[first] = mine
        for d, row in rows.items():
            full[d] = row
        whole.append(assemble_global(full, sharding, shape,
                                     present=sorted(set(first) | set(rows))).array)
    return whole


def _rows_to_fetch(sharding, shape, first: Sequence[int], num_devices: int) -> list[int]:
    """Devices whose rows hold blocks none of process 0's devices hold (one device per
    such block)."""
    if sharding is None:
        return []
    have = {sharding.shard_index(d) for d in first
            if sharding.device_slices(shape, d) is not None}
    wanted, seen = [], set(have)
    for d in range(num_devices):
        if sharding.device_slices(shape, d) is None:
            continue
        key = sharding.shard_index(d)
        if key not in seen:
            seen.add(key)
            wanted.append(d)
    return wanted


def _rotate_to_first(mine: np.ndarray, devices, first: Sequence[int], wanted) -> dict:
    """{device: its row} for the devices `wanted`, on process 0 (empty elsewhere)."""
    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from ..ir.jaxlib_bridge import place
    from .blocks import to_blocks

    n, m = len(devices), len(first)
    # After run k, logical device j holds the row of device (j + k*m) mod n.
    steps = 0
    missing = set(wanted)
    while missing:
        steps += 1
        missing -= {(j + steps * m) % n for j in first}
        if steps > n:
            raise AssertionError("rotation does not reach every row")  # (cannot happen)
    mesh = Mesh(np.array(devices), ("devices",))
    spec = PartitionSpec("devices")
    rotate = jax.jit(jax.shard_map(
        lambda x: jax.lax.ppermute(x, "devices", [(i, (i - m) % n) for i in range(n)]),
        mesh=mesh, in_specs=spec, out_specs=spec), out_shardings=NamedSharding(mesh, spec))
    rows = np.zeros((n, *mine.shape[1:]), mine.dtype)
    rows[local_devices(devices)] = mine
    with jax.enable_x64(True):
        x = place(devices, [to_blocks(rows)], True)[0]
        got = {}
        position = {d.id: i for i, d in enumerate(devices)}
        for k in range(1, steps + 1):
            x = rotate(x)
            if jax.process_index() != 0:
                continue
            for shard in x.addressable_shards:
                j = position[shard.device.id]
                source = (j + k * m) % n
                if source in wanted and source not in got:
                    data = np.asarray(shard.data)
                    got[source] = data.reshape(mine.shape[1:]) if mine.ndim > 1 else data[0]
        return got
