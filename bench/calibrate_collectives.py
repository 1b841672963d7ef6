#!/usr/bin/env python3
"""Calibrate the collective time model (python/shardpy/sharding/collective_time.py):
time each collective kind on the platform's devices and write a profile.

    python bench/calibrate_collectives.py                  # cpu: 8 host devices, ~1 min
    python bench/calibrate_collectives.py --platform gpu --out gpu.json
    python bench/calibrate_collectives.py --sizes 1K 64K 1M --groups 2 8 --runs 20

For each kind (all_gather, all_reduce, reduce_scatter, all_to_all, collective_permute)
and group size n (2, 4, 8), over a mesh of all the devices shaped (devices/n, n) with
the collective on the second axis (replica groups of n devices, devices/n groups at
once): one `jax.jit(jax.shard_map(...))` holding only that collective (lax.all_gather,
psum, psum_scatter, all_to_all, ppermute to the next device of the group; f32; the
compiled HLO is checked to hold exactly that one collective), inputs resident, timed at
each size S = the per-device buffer the collective is defined over (the gathered result
for all_gather, the operand otherwise: the S of the cost model), from 1 KiB to 16 MiB by
default. Per size: --warmup calls, then the median of --runs timed calls (default 30),
each less the time of calling, right after it, a jitted shard_map that only copies a
1 KiB buffer (dispatch and the wait for all devices, which a collective inside a program
does not pay; paired so that both see the same host load). A size whose median is not
above zero (host noise) is left out of the fit and named. Then
`fit_latency_bandwidth` fits seconds = latency + cost-weighted bytes / bandwidth per
(kind, n), the profile is written (default: the one shardpy ships for the platform,
python/shardpy/sharding/profiles/<platform>.json) and a table printed.

Compute rates follow, each with every device busy at once: elementwise bytes, matmul
flops, sort comparisons (measure_compute) and a grid of convolution rates by output
features x multiply-adds per output (measure_convolution). `--compute-only` measures
only those, `--convolution-only` only the grid, into an existing profile.
"""
from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import re
import statistics
import sys
import time

import compare_xla  # bench/: the host description the other tables carry

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_SIZES = [1 << k for k in range(10, 25, 2)]  # 1 KiB, 4 KiB, ..., 16 MiB
DEFAULT_GROUPS = [2, 4, 8]
CPU_DEVICES = 8
JAX_PLATFORM = {"cpu": "cpu", "gpu": "cuda"}
HLO_OPCODE = {"all_gather": "all-gather", "all_reduce": "all-reduce",
              "reduce_scatter": "reduce-scatter", "all_to_all": "all-to-all",
              "collective_permute": "collective-permute"}
HLO_COLLECTIVE = re.compile(
    r"= (?:\([^)]*\)|\S+) (all-gather|all-reduce|reduce-scatter|all-to-all|collective-permute|"
    r"collective-broadcast)(-start)?\(")


def parse_size(text: str) -> int:
    """'1K', '16M', '4096' -> bytes."""
    match = re.fullmatch(r"(\d+)([KMG]?)i?B?", text.strip(), re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 4096, 64K, 16M)")
    return int(match.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[match.group(2).upper()]


def _setup(platform: str) -> None:
    """The platform's devices (8 host devices on cpu), before anything imports jax."""
    os.environ["JAX_PLATFORMS"] = JAX_PLATFORM[platform]
    from shardpy.ir.jaxlib_bridge import quiet_logs, request_host_devices

    if platform == "cpu":
        request_host_devices(CPU_DEVICES)
    quiet_logs()


def _call_time(fn, arg) -> float:
    start = time.perf_counter()
    fn(arg).block_until_ready()
    return time.perf_counter() - start


def _median_times(fn, arg, baseline, warmup: int, runs: int) -> tuple[float, float]:
    """Median over the runs of fn(arg)'s seconds less the baseline's (a (fn, arg) pair)
    called right after it, so that both see the same load on a shared host; and the
    baseline's median."""
    differences, base_times = [], []
    for i in range(warmup + runs):
        seconds, base_seconds = _call_time(fn, arg), _call_time(*baseline)
        if i >= warmup:
            differences.append(seconds - base_seconds)
            base_times.append(base_seconds)
    return statistics.median(differences), statistics.median(base_times)


def _collective(kind: str, n: int):
    """The shard_map body: one collective of `kind` over axis "g" of size n."""
    from jax import lax

    if kind == "all_gather":
        return lambda x: lax.all_gather(x, "g", tiled=True)
    if kind == "all_reduce":
        return lambda x: lax.psum(x, "g")
    if kind == "reduce_scatter":
        return lambda x: lax.psum_scatter(x, "g", scatter_dimension=0, tiled=True)
    if kind == "all_to_all":
        return lambda x: lax.all_to_all(x, "g", 0, 0, tiled=True)
    return lambda x: lax.ppermute(x, "g", [(i, (i + 1) % n) for i in range(n)])


def measure(kind: str, n: int, sizes: list[int], warmup: int, runs: int, baseline,
            dispatch: list[float], dropped: list[str]) -> list[tuple[float, float]]:
    """(cost-weighted bytes, seconds) of `kind` over groups of n at each size, less the
    baseline (its medians appended to `dispatch`); a size whose time does not exceed
    the baseline's (host noise) is left out and named in `dropped`."""
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    from shardpy.sharding.collective_time import collective_cost_bytes

    devices = jax.devices()
    mesh = Mesh(np.array(devices).reshape(len(devices) // n, n), ("r", "g"))
    spec = P(("r", "g"))
    fn = jax.jit(jax.shard_map(_collective(kind, n), mesh=mesh, in_specs=spec,
                               out_specs=spec, check_vma=False))
    points = []
    for size in sizes:
        operand = size // n if kind == "all_gather" else size
        local = operand // 4
        if local == 0 or local % n:
            raise SystemExit(f"size {size} B: the f32 operand must split into {n} parts")
        x = jax.device_put(np.ones(len(devices) * local, np.float32),
                           NamedSharding(mesh, spec))
        hlo = fn.lower(x).compile().as_text()
        found = [m.group(1) for m in HLO_COLLECTIVE.finditer(hlo)]
        if found != [HLO_OPCODE[kind]]:
            raise SystemExit(f"{kind} over {n}: the compiled program holds {found}, "
                             f"not one {HLO_OPCODE[kind]}")
        seconds, dispatch_s = _median_times(fn, x, baseline, warmup, runs)
        dispatch.append(dispatch_s)
        nbytes = collective_cost_bytes(kind, n, operand, operand * n
                                       if kind == "all_gather" else operand)
        if seconds > 0:
            points.append((nbytes, seconds))
        else:
            dropped.append(f"{kind}/{n}/{size}B")
    return points


def measure_compute(warmup: int, runs: int, baseline) -> tuple[float, float, float]:
    """(bytes/s, flops/s, compares/s) of one device while every device works at once:
    an elementwise op on a sharded f32 array (bytes read + written per device), a
    matmul of each device's rows by a replicated matrix, and a sort of each device's
    rows (elements x log2 of the sorted dim), at sizes whose time is well above the
    dispatch baseline."""
    import jax
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P

    devices = jax.devices()
    mesh = jax.sharding.Mesh(np.array(devices), ("g",))
    n = len(devices)
    rows = 1 << 18  # 1 MiB of f32 per device
    x = jax.device_put(np.ones((n * rows,), np.float32), NamedSharding(mesh, P("g")))
    elementwise = jax.jit(lambda a: a * 1.5 + 0.5)
    elementwise(x).block_until_ready()
    seconds, _ = _median_times(elementwise, x, baseline, warmup, runs)
    memory = 2 * 4 * rows / max(seconds, 1e-9)
    m = 256
    a = jax.device_put(np.ones((n * m, m), np.float32), NamedSharding(mesh, P("g")))
    b = jax.device_put(np.ones((m, m), np.float32), NamedSharding(mesh, P()))
    matmul = jax.jit(lambda u: u @ b)
    matmul(a).block_until_ready()
    seconds, _ = _median_times(matmul, a, baseline, warmup, runs)
    flops = 2.0 * m * m * m / max(seconds, 1e-9)
    lines, length = 256, 128
    s = jax.device_put(np.random.default_rng(0).random((n * lines, length), np.float32),
                       NamedSharding(mesh, P("g")))
    sort = jax.jit(lambda u: jax.lax.sort(u, dimension=1))
    sort(s).block_until_ready()
    seconds, _ = _median_times(sort, s, baseline, warmup, runs)
    compares = lines * length * np.log2(length) / max(seconds, 1e-9)
    return memory, flops, float(compares)


CONVOLUTION_FEATURES = (1, 4, 16, 64, 256)  # output features; input features the same


def measure_convolution(warmup: int, runs: int, baseline):
    """ConvolutionRates: multiply-adds per second of one device while every device
    convolves at once (f32, NCHW, a 3x3 "SAME" window, one image per device), on the
    grid of output features by input features in CONVOLUTION_FEATURES (contraction =
    9 x input features), each image sized for ~16M multiply-adds (8x8 to 64x64)."""
    import jax
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P

    from shardpy.sharding.collective_time import ConvolutionRates

    devices = jax.devices()
    mesh = jax.sharding.Mesh(np.array(devices), ("g",))
    rates = []
    for features in CONVOLUTION_FEATURES:
        row = []
        for inputs in CONVOLUTION_FEATURES:
            contraction = 9 * inputs
            pixels = min(4096, max(64, 16e6 / (features * contraction)))
            side = round(pixels ** 0.5)
            x = jax.device_put(np.ones((len(devices), inputs, side, side), np.float32),
                               NamedSharding(mesh, P("g")))
            kernel = jax.device_put(np.ones((features, inputs, 3, 3), np.float32),
                                    NamedSharding(mesh, P()))
            conv = jax.jit(lambda u, k=kernel: jax.lax.conv_general_dilated(
                u, k, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")))
            conv(x).block_until_ready()
            seconds, _ = _median_times(conv, x, baseline, warmup, runs)
            row.append(features * side * side * contraction / max(seconds, 1e-9))
        rates.append(tuple(row))
    return ConvolutionRates(CONVOLUTION_FEATURES,
                            tuple(9 * f for f in CONVOLUTION_FEATURES), tuple(rates))


def convolution_table(rates) -> str:
    lines = ["convolution G multiply-adds/s per device (all busy), output features x "
             "multiply-adds per output:",
             f"{'':>10}" + "".join(f"{k:>9}" for k in rates.contraction)]
    for features, row in zip(rates.features, rates.multiply_adds_per_s):
        lines.append(f"{features:>10}" + "".join(f"{r / 1e9:>9.3f}" for r in row))
    return "\n".join(lines)


def dispatch_baseline():
    """(fn, arg): a jitted shard_map over all devices that copies 1 KiB on each."""
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    devices = jax.devices()
    mesh = Mesh(np.array(devices), ("d",))
    fn = jax.jit(jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("d"),
                               out_specs=P("d")))
    x = jax.device_put(np.ones(len(devices) * 256, np.float32), NamedSharding(mesh, P("d")))
    return fn, x


def table(model) -> str:
    lines = [f"{'kind':<20}{'group':>6}{'latency µs':>12}{'bandwidth GB/s':>16}"
             f"{'max rel residual':>18}"]
    for kind, by_size in model.fits.items():
        for n, fit in sorted(by_size.items()):
            lines.append(f"{kind:<20}{n:>6}{fit.latency_s * 1e6:>12.1f}"
                         f"{fit.bandwidth_bytes_per_s / 1e9:>16.2f}"
                         f"{fit.max_rel_residual:>18.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--platform", choices=sorted(JAX_PLATFORM), default="cpu")
    parser.add_argument("--sizes", nargs="+", type=parse_size, default=DEFAULT_SIZES,
                        help="per-device buffer sizes S (e.g. 1K 64K 16M; default 1K..16M "
                             "by factors of 4)")
    parser.add_argument("--groups", nargs="+", type=int, default=DEFAULT_GROUPS,
                        help="replica group sizes (default 2 4 8; those that divide the "
                             "device count)")
    parser.add_argument("--kinds", nargs="+", default=None,
                        help="collective kinds (default: all five)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--runs", type=int, default=30, help="timed calls per size (median)")
    parser.add_argument("--compute-only", action="store_true",
                        help="measure only the compute rates and write them into the "
                             "existing profile (its collective fits kept)")
    parser.add_argument("--convolution-only", action="store_true",
                        help="measure only the convolution rates and write them into the "
                             "existing profile (everything else kept)")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="profile to write (default: the shipped one, "
                             "python/shardpy/sharding/profiles/<platform>.json)")
    args = parser.parse_args(argv)
    if len(set(args.sizes)) < 2:
        parser.error("--sizes: two or more different sizes are needed for a fit")

    _setup(args.platform)
    import jax

    from shardpy.ir.diagnostics import ShardpyError
    from shardpy.sharding.collective_time import (
        KINDS, CollectiveTimeModel, default_profile_path, fit_latency_bandwidth)

    kinds = args.kinds or list(KINDS)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"--kinds: unknown {unknown} (known: {', '.join(KINDS)})")
    count = len(jax.devices())
    groups = [n for n in args.groups if 2 <= n <= count and count % n == 0]
    if not groups:
        parser.error(f"no group size of {args.groups} fits {count} {args.platform} devices")

    started = time.perf_counter()
    baseline, dispatch, dropped = dispatch_baseline(), [], []
    if args.convolution_only:
        out = args.out or default_profile_path(args.platform)
        model = CollectiveTimeModel.load(out)
        model.convolution = measure_convolution(args.warmup, args.runs, baseline)
        model.save(out)
        print(convolution_table(model.convolution))
        print(f"{time.perf_counter() - started:.0f} s; wrote {out}")
        return 0
    if args.compute_only:
        out = args.out or default_profile_path(args.platform)
        model = CollectiveTimeModel.load(out)
        (model.memory_bytes_per_s, model.flops_per_s,
         model.compares_per_s) = measure_compute(args.warmup, args.runs, baseline)
        model.convolution = measure_convolution(args.warmup, args.runs, baseline)
        model.save(out)
        print(convolution_table(model.convolution))
        print(f"compute per device (all busy): {model.memory_bytes_per_s / 1e9:.2f} GB/s "
              f"elementwise, {model.flops_per_s / 1e9:.2f} GFLOP/s matmul, "
              f"{model.compares_per_s / 1e6:.1f} M compares/s sort; "
              f"{time.perf_counter() - started:.0f} s; wrote {out}")
        return 0
    fits = {}
    for kind in kinds:
        fits[kind] = {}
        for n in groups:
            points = measure(kind, n, sorted(set(args.sizes)), args.warmup, args.runs,
                             baseline, dispatch, dropped)
            try:
                fits[kind][n] = fit_latency_bandwidth(points)
            except ShardpyError as err:
                raise SystemExit(f"{kind} over {n}: {err.message}; a noisy host? more "
                                 "--runs or a wider range of --sizes") from None
    memory, flops, compares = measure_compute(args.warmup, args.runs, baseline)
    convolution = measure_convolution(args.warmup, args.runs, baseline)
    device = jax.devices()[0]
    model = CollectiveTimeModel(
        fits, platform=args.platform, device_kind=device.device_kind, device_count=count,
        jax_version=jax.__version__,
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        machine=compare_xla._machine(),
        command=" ".join(["bench/calibrate_collectives.py", *(argv if argv is not None
                                                              else sys.argv[1:])]),
        memory_bytes_per_s=memory, flops_per_s=flops, compares_per_s=compares,
        convolution=convolution)
    out = args.out or default_profile_path(args.platform)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(table(model))
    print(f"\ncompute per device (all busy): {memory / 1e9:.2f} GB/s elementwise, "
          f"{flops / 1e9:.2f} GFLOP/s matmul, {compares / 1e6:.1f} M compares/s sort")
    print(convolution_table(convolution))
    print(f"\n{args.platform} ({device.device_kind}) x{count}, {model.machine}; dispatch "
          f"{statistics.median(dispatch) * 1e6:.0f} µs (median) subtracted; "
          f"{time.perf_counter() - started:.0f} s; wrote {out}")
    if dropped:
        print(f"left out, not above the dispatch time: {', '.join(dropped)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
