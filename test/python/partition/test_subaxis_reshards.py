"""Reshards between every pair of rank-2 shardings over the sub-axes of a mesh, executed
(test/exhaustive/subaxis_reshards.py; issue 19).

Here: every pair on the 6-device meshes ("a"=6, and "a"=2 x "b"=3), and a few random
sources against every target on 12 and 30 devices (one and two axes), so the suite stays
short. The whole set for 12 and 30 devices is a longer run:

    python test/exhaustive/subaxis_reshards.py --mesh a=30 --jobs 2
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "exhaustive" / "subaxis_reshards.py"


@pytest.mark.parametrize("mesh, sample", [
    ("a=6", 0), ("a=2,b=3", 0),
    ("a=12", 3), ("a=6,b=2", 3), ("a=30", 1), ("a=6,b=5", 1),
])
def test_every_target_from_these_sources_runs_right(mesh, sample):
    args = [sys.executable, str(SCRIPT), "--mesh", mesh, "--seed", "19"]
    if sample:
        args += ["--sample", str(sample)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-5000:]
    assert " 0 failed" in out, out[-5000:]
