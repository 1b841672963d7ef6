"""bench/binding_floor.py (the least a Python pass on jaxlib's bindings spends on a
module): its rebuild really copies a module op by op, regions included, and the driver
prints its table (no timing asserted)."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
FLOOR = ROOT / "bench" / "binding_floor.py"
# A loop (regions with block arguments), sdy meshes and shardings, func attributes.
WITH_LOOP = ROOT / "test" / "Regressions" / "scan_inputs_gathered_once_not_per_step.mlir"


def test_worker_rebuilds_a_module_with_regions_op_by_op():
    proc = subprocess.run([sys.executable, str(FLOOR), "--worker", str(WITH_LOOP)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report["same"] is True  # the rebuilt module prints as the input does
    assert report["walked"] == report["ops"] > 50
    for key in ("read", "retype", "walk", "rebuild"):
        assert report[key] > 0


def test_rebuild_is_a_new_module_not_the_input(tmp_path):
    sys.path.insert(0, str(ROOT / "python"))
    sys.path.insert(0, str(ROOT / "bench"))
    from binding_floor import rebuild
    from jaxlib.mlir import ir
    from shardpy.ir.jaxlib_bridge import make_context

    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(WITH_LOOP.read_text())
        copy = rebuild(module)
        assert copy.operation != module.operation
        first = copy.body.operations[0]
        assert first.operation.parent == copy.operation  # its ops belong to the copy
        copy.operation.verify()
        assert str(copy) == str(module)


def test_table_for_given_modules():
    proc = subprocess.run([sys.executable, str(FLOOR), "--modules", str(WITH_LOOP),
                           "--repeat", "1"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| module | ops | read ms | retype ms | least ms")
    assert rows[-1].startswith(f"| {WITH_LOOP.stem} | ")
    assert rows[-1].count("–") == 5  # no native or shardpy side for given modules
