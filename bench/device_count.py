#!/usr/bin/env python3
"""Partition the same program for 8, 4,096 and 65,536 devices: time, memory, module size.

GSPMD's promise is one program whose compile time does not depend on the device count
(issue 17). The program is bench/scale.py's transformer train step (`--size 10k`: 30
unrolled layers, DP x TP on ["data"=2, "model"=4]); for N devices its mesh gets one more
axis, major-most, that nothing is sharded on: ["extra"=N/8, "data"=2, "model"=4]
(`mhlo.num_partitions` = N). Every collective then runs in N/8 times as many groups.

    python bench/device_count.py                         # 8, 4096, 65536 devices; 3 runs each
    python bench/device_count.py --devices 8 65536 --repeat 5 --size 1k
    python bench/device_count.py --compact off           # dense lists and tables, to compare
    python bench/device_count.py --worker FILE --compact auto   # one run, JSON

Each run is a fresh process (this script with --worker): it parses the module, runs
`shardpy-partition` (verify_each off, as shardpy.jit runs it; `--compact` passed
to shardpy-to-local) and reports the pipeline's wall time (perf_counter), the
process's peak resident memory (ru_maxrss, jaxlib and all), and the per-device
module's size as text and as MLIR bytecode. The table shows medians over `--repeat`
runs and each figure's ratio to the 8-device one.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

PIPELINE = ("builtin.module(shardpy-import,shardpy-propagate,shardpy-choose-shardings,"
            "shardpy-insert-reshards,shardpy-reshard-to-collectives,"
            "shardpy-to-local{{compact={groups}}},shardpy-combine-collectives)")
MESH = re.compile(r'sdy\.mesh @mesh = <\["data"=2, "model"=4\]>')


def with_devices(text: str, devices: int) -> str:
    """The scale module on a mesh of `devices` devices: an unused major axis "extra"."""
    if devices == 8:
        return text
    if devices % 8:
        raise SystemExit(f"--devices: {devices} is not a multiple of 8")
    extra = devices // 8
    text, found = MESH.subn(f'sdy.mesh @mesh = <["extra"={extra}, "data"=2, "model"=4]>',
                            text)
    if found != 1:
        raise SystemExit("the scale module's mesh is not the expected one")
    text = text.replace('axes = [{name = "data"',
                        f'axes = [{{name = "extra", size = {extra} : i64}}, {{name = "data"', 1)
    return text.replace("mhlo.num_partitions = 8 : i32", f"mhlo.num_partitions = {devices} : i32")


def worker(path: str, groups: str) -> dict:
    import resource

    from jaxlib.mlir import ir

    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.ir.utils import collect_ops
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline, PipelineOptions

    context = make_context()
    module = ir.Module.parse(Path(path).read_text(), context)
    pipeline = Pipeline(PIPELINE.format(groups=groups), context,
                        PipelineOptions(verify_each=False))
    engine = DiagnosticEngine(path)
    start = time.perf_counter()
    ok = pipeline.run(module, engine)
    seconds = time.perf_counter() - start
    if not ok:
        raise SystemExit("partitioning failed")
    text = str(module)
    import io
    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    return {"seconds": seconds,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "text_bytes": len(text.encode()), "bytecode_bytes": len(buffer.getvalue()),
            "ops": len(collect_ops(module.operation))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, nargs="+", default=[8, 4096, 65536])
    parser.add_argument("--size", default="10k", help="bench/scale.py size (1k, 10k, 50k)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compact", default="auto", choices=("auto", "on", "off"),
                        help="shardpy-to-local's compact option (off: dense replica "
                        "groups and per-device tables, for comparison)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.compact)))
        return 0

    import scale
    source = Path(scale.ensure([args.size], quiet=True)[args.size]["path"]).read_text()
    results: dict[int, list[dict]] = {n: [] for n in args.devices}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for n in args.devices:
            paths[n] = Path(tmp) / f"scale_{args.size}_{n}.mlir"
            paths[n].write_text(with_devices(source, n))
        for _ in range(args.repeat):  # the sizes alternate: drift hits all alike
            for n in args.devices:
                done = subprocess.run([sys.executable, __file__, "--worker", str(paths[n]),
                                       "--compact", args.compact],
                                      capture_output=True, text=True)
                if done.returncode:
                    print(done.stderr[-2000:], file=sys.stderr)
                    return 1
                results[n].append(json.loads(done.stdout.strip().splitlines()[-1]))
    median = {n: {k: statistics.median(r[k] for r in runs) for k in runs[0]}
              for n, runs in results.items()}
    base = median[args.devices[0]]
    print(f"scale_{args.size} ({base['ops']:.0f} ops after partitioning), compact: "
          f"{args.compact}; medians of {args.repeat} runs, ratio to "
          f"{args.devices[0]} devices")
    print(f"{'devices':>8} {'partition s':>12} {'ratio':>6} {'peak MB':>8} {'ratio':>6} "
          f"{'text KB':>9} {'ratio':>6} {'bytecode KB':>11} {'ratio':>6}")
    for n in args.devices:
        m = median[n]
        print(f"{n:>8} {m['seconds']:>12.2f} {m['seconds'] / base['seconds']:>6.2f} "
              f"{m['peak_mb']:>8.0f} {m['peak_mb'] / base['peak_mb']:>6.2f} "
              f"{m['text_bytes'] / 1024:>9.0f} {m['text_bytes'] / base['text_bytes']:>6.2f} "
              f"{m['bytecode_bytes'] / 1024:>11.0f} "
              f"{m['bytecode_bytes'] / base['bytecode_bytes']:>6.2f}")
    spread = {n: (min(r["seconds"] for r in runs), max(r["seconds"] for r in runs))
              for n, runs in results.items()}
    print("partition seconds, min-max: " + ", ".join(
        f"{n}: {lo:.2f}-{hi:.2f}" for n, (lo, hi) in spread.items()))
    if args.json:
        args.json.write_text(json.dumps({"runs": {str(n): r for n, r in results.items()},
                                         "median": {str(n): m for n, m in median.items()}},
                                        indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
