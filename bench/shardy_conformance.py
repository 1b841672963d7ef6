#!/usr/bin/env python3
"""Run Shardy's own propagation lit tests against shardpy-propagate, chunk by chunk.

    python bench/shardy_conformance.py /path/to/openxla/shardy          # a checkout
    python bench/shardy_conformance.py /work/.mirror/openxla+shardy/repo # or a bare git dir
    python bench/shardy_conformance.py SHARDY --native                  # the native passes
    python bench/shardy_conformance.py SHARDY -v --only basic_propagation.mlir:12

Nothing from Shardy is committed: the tests are read at run time from the snapshot given
by path (CI has no network; run this by hand). For each test file of
`shardy/dialect/sdy/transforms/propagation/test/` named in FILES, its RUN line picks the
strategy (`-sdy-basic-propagate` -> basic, `-sdy-aggressive-propagate` -> aggressive,
`-sdy-op-priority-propagate` -> op-priority, `-sdy-user-priority-propagate` ->
user-priority) and whether diagnostics are verified. The file is split at `// -----`, and
each chunk is run on its own:

    shardpy-opt CHUNK --shardpy-propagate=strategy=S,close-shardings=false [--verify-diagnostics]
    filecheck CHUNK --input-file OUTPUT      # the chunk's own CHECK lines

A chunk agrees when shardpy-opt exits 0 (diagnostics as expected where verified) and
FileCheck passes. `--native` runs Shardy's pass of the RUN line instead (as jaxlib
registers it), which checks the script itself: every chunk should agree there, short of
what differs between the snapshot and the Shardy inside jaxlib.

Prints one line per file (agreeing chunks / chunks) and the total; `-v` also prints each
failing chunk's first lines of FileCheck output; `--json FILE` saves every chunk's result.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TEST_DIR = "shardy/dialect/sdy/transforms/propagation/test"
FILES = ["basic_propagation.mlir", "aggressive_propagation.mlir", "op_priority_propagation.mlir",
         "user_priority_propagation.mlir", "sharding_group_propagation.mlir"]
STRATEGIES = {"-sdy-basic-propagate": "basic", "-sdy-aggressive-propagate": "aggressive",
              "-sdy-op-priority-propagate": "op-priority",
              "-sdy-user-priority-propagate": "user-priority"}
BIN = Path(sys.executable).parent


def read_test(shardy: Path, name: str) -> str:
    """The test file's text from a checkout or from a git directory (a fetched snapshot)."""
    path = shardy / TEST_DIR / name
    if path.exists():
        return path.read_text()
    try:
        return subprocess.run(["git", "--git-dir", str(shardy), "show", f"HEAD:{TEST_DIR}/{name}"],
                              check=True, capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError) as err:
        sys.exit(f"shardy_conformance: cannot read {TEST_DIR}/{name} from {shardy}: "
                 f"neither a checkout nor a git directory holding it ({err})")


def run_line(text: str, name: str) -> tuple[str, str, bool]:
    """(native pass flag, shardpy strategy, verify diagnostics) from the file's RUN line."""
    run = " ".join(line.split("RUN:", 1)[1] for line in text.splitlines() if "// RUN:" in line)
    for flag, strategy in STRATEGIES.items():
        match = re.search(re.escape(flag) + r"""(=("[^"]*"|'[^']*'|\S+))?""", run)
        if match:
            return match.group(0), strategy, "-verify-diagnostics" in run
    sys.exit(f"shardy_conformance: {name}: no propagation pass on its RUN line: {run!r}")


def split_chunks(text: str) -> list[str]:
    """The `// -----` chunks, each padded with blank lines so line numbers stay the file's."""
    chunks, start = [], 0
    lines = text.splitlines(keepends=True)
    current: list[str] = []
    for number, line in enumerate(lines):
        if line.strip() == "// -----":
            chunks.append("\n" * start + "".join(current))
            start, current = number + 1, []
        else:
            current.append(line)
    chunks.append("\n" * start + "".join(current))
    return chunks


def run_chunk(job: tuple[str, int, str, list[str], bool]) -> dict:
    name, index, chunk, pass_flags, verify = job
    with tempfile.TemporaryDirectory(prefix="sdyconf") as tmp:
        src = Path(tmp) / f"chunk{index}.mlir"
        src.write_text(chunk)
        cmd = [str(BIN / "shardpy-opt"), str(src), *pass_flags]
        if verify:
            cmd.append("--verify-diagnostics")
        try:
            opt = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return {"file": name, "chunk": index, "ok": False, "why": "timeout"}
        out = Path(tmp) / "out.txt"
        # The RUN lines pipe stderr too (2>&1), so warnings are part of what is checked.
        out.write_text(opt.stdout + opt.stderr)
        if opt.returncode != 0:
            return {"file": name, "chunk": index, "ok": False,
                    "why": f"shardpy-opt exit {opt.returncode}", "log": opt.stderr[-3000:]}
        if not re.search(r"//\s*CHECK", chunk):
            return {"file": name, "chunk": index, "ok": True, "why": "no CHECK lines"}
        check = subprocess.run([str(BIN / "filecheck"), str(src), "--input-file", str(out)],
                               capture_output=True, text=True)
        if check.returncode != 0:
            return {"file": name, "chunk": index, "ok": False, "why": "FileCheck",
                    "log": (check.stdout + check.stderr)[-3000:]}
        return {"file": name, "chunk": index, "ok": True}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shardy", type=Path, help="openxla/shardy checkout or git directory")
    parser.add_argument("--files", nargs="*", default=FILES, help="test files to run")
    parser.add_argument("--native", action="store_true",
                        help="run Shardy's native pass of the RUN line instead of shardpy's")
    parser.add_argument("--only", action="append", default=[],
                        help="FILE:CHUNK (0-based) to run alone; repeatable")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", type=Path, help="write every chunk's result here")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)

    only = {(spec.rsplit(":", 1)[0], int(spec.rsplit(":", 1)[1])) for spec in args.only}
    jobs = []
    for name in args.files:
        text = read_test(args.shardy, name)
        native_flag, strategy, verify = run_line(text, name)
        flags = ([native_flag.replace('"', "").replace("'", "").replace("-sdy", "--sdy", 1)]
                 if args.native else
                 [f"--shardpy-propagate=strategy={strategy} close-shardings=false"])
        for index, chunk in enumerate(split_chunks(text)):
            if not only or (name, index) in only:
                jobs.append((name, index, chunk, flags, verify))

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(run_chunk, jobs))

    total = agree = 0
    for name in args.files:
        mine = [r for r in results if r["file"] == name]
        if not mine:
            continue
        good = sum(r["ok"] for r in mine)
        total, agree = total + len(mine), agree + good
        bad = [str(r["chunk"]) for r in mine if not r["ok"]]
        print(f"{name:38s} {good:3d}/{len(mine):<3d}" + (f"  differ: {' '.join(bad)}" if bad else ""))
        if args.verbose:
            for r in mine:
                if not r["ok"]:
                    print(f"  --- {name}:{r['chunk']}: {r['why']}")
                    for line in r.get("log", "").strip().splitlines()[:12]:
                        print("     " + line)
    which = "native" if args.native else "shardpy"
    print(f"{'total (' + which + ')':38s} {agree:3d}/{total}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
