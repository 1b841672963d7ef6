"""Every reshard between two shardings of a rank-2 value over the sub-axes of a mesh,
partitioned by shardpy, run on CPU host devices and compared exactly.

Issue 19: sub-axes of different decompositions of one axis ("a":(1)2 and "a":(3)2 on
"a"=6 are the major digit of 2*3 and the minor digit of 3*2) must reshard right. This
enumerates every valid sharding of a rank-2 value on a mesh (each dim an ordered list of
axis refs: whole axes and every sub-axis `"a":(m)k`; refs of one tensor pairwise
non-overlapping and coexisting, consecutive sub-axes merged, as sdy requires), and for
every source sharding builds one module

    func.func @main(%x: tensor<RxCxf32> {sdy.sharding = <@mesh, SOURCE>})
        -> (tensor<RxCxf32> {sdy.sharding = <@mesh, TARGET_1>}, ...) {
      %y1 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, TARGET_1>]>}
      ...
      return %y1, ... }

with one result per target. Each is partitioned (shardpy-partition), run on as many CPU
devices as the mesh has and compared with -x exactly; devices holding the same shard
must agree. The shape is divisible by every shard count (--uneven adds 1 to each dim,
so shards are padded).

    python test/exhaustive/subaxis_reshards.py --mesh a=6            # 23 x 23 pairs
    python test/exhaustive/subaxis_reshards.py --mesh a=30 --jobs 2  # 327 x 327
    python test/exhaustive/subaxis_reshards.py --mesh a=6,b=2 --sample 50 --seed 1

Prints `N passed, M failed` (pairs) and exits non-zero on a failure.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_mesh(text: str) -> tuple[tuple[str, int], ...]:
    axes = []
    for part in text.split(","):
        name, size = part.split("=")
        axes.append((name.strip(), int(size)))
    return tuple(axes)


def axis_refs(mesh):
    """Every ref of the mesh: each whole axis and each sub-axis "a":(m)k (k > 1)."""
    from shardpy.sharding.model import AxisRef

    refs = []
    for name, size in mesh:
        refs.append(AxisRef(name))
        for end in range(2, size + 1):
            if size % end:
                continue
            for pre in range(1, end):
                if end % pre == 0 and end // pre > 1 and not (pre == 1 and end == size):
                    refs.append(AxisRef(name, (pre, end // pre)))
    return refs


def _interval(ref, mesh) -> tuple[int, int]:
    """The multiplicative interval [m, m*k) of the axis that `ref` covers."""
    if ref.sub is None:
        return 1, dict(mesh)[ref.name]
    return ref.sub[0], ref.sub[0] * ref.sub[1]


def _together(a, b, mesh) -> bool:
    """Can a and b shard one tensor together? (Written here independently of the code
    under test: different axes always; refs of one axis when they do not overlap and
    all four end points, sorted, divide each other: one decomposition of the axis.)"""
    if a.name != b.name:
        return True
    (lo1, hi1), (lo2, hi2) = _interval(a, mesh), _interval(b, mesh)
    points = sorted({lo1, hi1, lo2, hi2})
    return max(lo1, lo2) >= min(hi1, hi2) and all(
        q % p == 0 for p, q in zip(points, points[1:]))


def all_shardings(mesh, rank: int = 2) -> list[tuple[tuple, ...]]:
    """Every valid dim sharding tuple (one ordered axis list per dim), sorted by text."""
    refs = axis_refs(mesh)
    found: set = set()

    def lists(prefix, used):
        yield tuple(prefix)
        for ref in refs:
            if any(not _together(ref, u, mesh) for u in used):
                continue
            if prefix and prefix[-1].name == ref.name and \
                    _interval(prefix[-1], mesh)[1] == _interval(ref, mesh)[0]:
                continue  # consecutive sub-axes: sdy wants them merged
            yield from lists(prefix + [ref], used + [ref])

    def dims(d, used, chosen):
        if d == rank:
            found.add(tuple(chosen))
            return
        for axes in lists([], used):
            dims(d + 1, used + list(axes), chosen + [axes])

    dims(0, [], [])
    return sorted(found, key=text_of)


def text_of(dims) -> str:
    return "[" + ", ".join("{" + ", ".join(str(a) for a in d) + "}" for d in dims) + "]"


def module_text(mesh, shape, source, targets) -> str:
    mesh_text = ", ".join(f'"{n}"={s}' for n, s in mesh)
    t = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    results = ", ".join(f"{t} {{sdy.sharding = #sdy.sharding<@mesh, {text_of(d)}>}}"
                        for d in targets)
    lines = [f"sdy.mesh @mesh = <[{mesh_text}]>",
             f"func.func public @main(%x: {t} {{sdy.sharding = #sdy.sharding<@mesh, "
             f"{text_of(source)}>}}) -> ({results}) {{"]
    for i, d in enumerate(targets):
        lines.append(f"  %y{i} = stablehlo.negate %x {{sdy.sharding = "
                     f"#sdy.sharding_per_value<[<@mesh, {text_of(d)}>]>}} : {t}")
    lines.append("  return " + ", ".join(f"%y{i}" for i in range(len(targets)))
                 + f" : {', '.join([t] * len(targets))}")
    lines.append("}")
    return "\n".join(lines) + "\n"


_WORKER: dict = {}


def _init_worker(devices: int) -> None:
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split()
             if not f.startswith("--xla_force_host_platform_device_count")]
    os.environ["XLA_FLAGS"] = " ".join(flags + [
        f"--xla_force_host_platform_device_count={devices}"])


def check_source(args) -> tuple[int, list[str]]:
    """Partition and run one source's module: (pairs failed, one line per failure)."""
    import numpy as np
    from jaxlib.mlir import ir

    from shardpy.runtime import executor as runtime
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline

    mesh, shape, source, targets = args
    if not _WORKER:
        context = make_context()
        _WORKER.update(context=context, executor=runtime.Executor("cpu"),
                       pipeline=Pipeline("builtin.module(shardpy-partition)", context))
    context, pipeline, executor = _WORKER["context"], _WORKER["pipeline"], _WORKER["executor"]
    text = module_text(mesh, shape, source, targets)
    where = f"source {text_of(source)}"
    engine = DiagnosticEngine("reshards.mlir")
    try:
        with engine.capturing(context):
            module = ir.Module.parse(text, context)
            op = module.operation
            sig = runtime.signature(op)
            if not pipeline.run(module, engine) or engine.has_errors:
                return len(targets), [f"{where}: partition error: " + "; ".join(
                    d.render() for d in engine.diagnostics)[:2000]]
            x = np.arange(math.prod(shape), dtype=np.float32).reshape(shape) + 1
            result = executor.run_per_device(op, sig, [x])
    except Exception as err:  # noqa: BLE001 - reported as a failure of this source
        return len(targets), [f"{where}: {type(err).__name__}: {str(err)[:2000]}"]
    failures = []
    for target, got, divergence in zip(targets, result.outputs, result.replica_divergence):
        if not np.array_equal(got, -x) or divergence:
            failures.append(f"{where} -> target {text_of(target)}: wrong values "
                            f"(max error {float(np.max(np.abs(got + x)))}, replicas "
                            f"disagree by {divergence})")
    return len(failures), failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mesh", required=True, help="axes, e.g. a=6 or a=6,b=2")
    parser.add_argument("--uneven", action="store_true", help="dims padded: size + 1")
    parser.add_argument("--sample", type=int, default=0,
                        help="only this many source shardings (random, --seed), each "
                             "against every target")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=400, help="targets per module")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    mesh = parse_mesh(args.mesh)
    shardings = all_shardings(mesh)
    devices = math.prod(s for _, s in mesh)
    side = devices + (1 if args.uneven else 0)
    shape = (side, side)
    sources = shardings
    if args.sample and args.sample < len(shardings):
        sources = random.Random(args.seed).sample(shardings, args.sample)
    work = [(mesh, shape, s, shardings[i:i + args.batch])
            for s in sources for i in range(0, len(shardings), args.batch)]
    pairs = len(sources) * len(shardings)
    print(f"mesh {args.mesh}: {len(shardings)} shardings, {len(sources)} sources, "
          f"{pairs} pairs, shape {shape}", flush=True)
    start = time.time()
    failed_pairs = 0
    with ProcessPoolExecutor(args.jobs, initializer=_init_worker,
                             initargs=(devices,)) as pool:
        for done, (failed, lines) in enumerate(pool.map(check_source, work), 1):
            failed_pairs += failed
            for line in lines:
                print("FAIL " + line, flush=True)
            if done % 25 == 0:
                print(f"  {done}/{len(work)} modules, {time.time() - start:.0f} s",
                      flush=True)
    print(f"{pairs - failed_pairs} passed, {failed_pairs} failed "
          f"({time.time() - start:.0f} s)")
    return 1 if failed_pairs else 0


if __name__ == "__main__":
    sys.exit(main())
