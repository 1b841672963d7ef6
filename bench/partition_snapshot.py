#!/usr/bin/env python3
"""Freeze shardpy-partition's behaviour: its output on every input the repository holds.

    python bench/partition_snapshot.py OUT                  # snapshot into OUT/
    python bench/partition_snapshot.py OUT --fuzz-from A    # reuse A's fuzz programs
    python bench/partition_snapshot.py --compare A B        # exit 1 if any output differs

For a refactoring that must not change behaviour: take a snapshot before, one after,
and compare. The inputs are every `.mlir`/`.hlo` file under test/ (lit inputs, split at
`// -----` as lit does), examples/ and bench/corpus/, plus `--fuzz N` programs from
test/fuzz/generate.py (seeds `--fuzz-seed` on; they are saved in OUT/fuzz/ so that
the second snapshot partitions the same programs even if the generator changed).

Each input goes through `shardpy-opt FILE --split-input-file --shardpy-partition`
(the public entry point, so the snapshot does not depend on internal module names);
OUT/manifest.json records, per input, the exit status and a sha256 of stdout and of
stderr (the diagnostics), and OUT/outputs/ keeps the texts for diffing.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import multiprocessing
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("test", "examples", "bench/corpus")


def inputs(fuzz_dir: Path) -> list[Path]:
    found = []
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*")):
            if path.suffix in (".mlir", ".hlo") and path.is_file() \
                    and "Output" not in path.parts:
                found.append(path)
    return found + sorted(fuzz_dir.glob("*.mlir"))


def partition(path: Path) -> tuple[int, str, str]:
    from shardpy.tools.shardpy_opt import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(path), "--split-input-file", "--shardpy-partition"])
        except SystemExit as exit_:
            status = exit_.code
    return int(status or 0), out.getvalue(), err.getvalue()


def _one(args: tuple[str, str, str]) -> tuple[str, dict]:
    path, name, out_dir = args
    status, stdout, stderr = partition(Path(path))
    stderr = stderr.replace(path, name)  # snapshots in different folders compare equal
    target = Path(out_dir) / "outputs" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.with_suffix(target.suffix + ".out").write_text(stdout)
    target.with_suffix(target.suffix + ".err").write_text(stderr)
    return name, {"status": status,
                  "stdout": hashlib.sha256(stdout.encode()).hexdigest(),
                  "stderr": hashlib.sha256(stderr.encode()).hexdigest()}


def generate_fuzz(out: Path, count: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT / "test" / "fuzz"))
    import generate  # test/fuzz/generate.py

    out.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        (out / f"seed_{seed + k}.mlir").write_text(generate.generate(seed + k).text)


def snapshot(out: Path, fuzz: int, fuzz_seed: int, fuzz_from: Path | None, jobs: int) -> None:
    fuzz_dir = out / "fuzz"
    if fuzz_from is not None:
        fuzz_dir.mkdir(parents=True, exist_ok=True)
        for path in sorted((fuzz_from / "fuzz").glob("*.mlir")):
            (fuzz_dir / path.name).write_text(path.read_text())
    else:
        generate_fuzz(fuzz_dir, fuzz, fuzz_seed)
    paths = inputs(fuzz_dir)
    names = [str(p.relative_to(out)) if p.is_relative_to(out) else str(p.relative_to(ROOT))
             for p in paths]
    work = [(str(p), n, str(out)) for p, n in zip(paths, names)]
    with multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=40) as pool:
        manifest = dict(pool.imap(_one, work, chunksize=4))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    failed = sum(1 for v in manifest.values() if v["status"])
    print(f"{len(manifest)} inputs ({len(list(fuzz_dir.glob('*.mlir')))} fuzz), "
          f"{failed} with a non-zero exit (error tests included)")


def compare(a: Path, b: Path) -> int:
    left = json.loads((a / "manifest.json").read_text())
    right = json.loads((b / "manifest.json").read_text())
    differ = sorted(n for n in left.keys() & right.keys() if left[n] != right[n])
    only = sorted(left.keys() ^ right.keys())
    for name in differ:
        print(f"differs: {name}")
    for name in only:
        print(f"only in one snapshot: {name}")
    print(f"{len(left.keys() & right.keys())} inputs in both: {len(differ)} differ, "
          f"{len(only)} in one snapshot only")
    return 1 if differ or only else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    parser.add_argument("--fuzz", type=int, default=1000)
    parser.add_argument("--fuzz-seed", type=int, default=1300000)
    parser.add_argument("--fuzz-from", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give OUT or --compare A B")
    snapshot(args.out.resolve(), args.fuzz, args.fuzz_seed,
             args.fuzz_from.resolve() if args.fuzz_from else None, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
