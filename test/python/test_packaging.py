"""pyproject.toml's package list names every package of the library, so that a wheel
(`pip install .`, not only an editable install) holds all of it, and the package data
it names exists. (Before: shardpy.lowering.indexing and .windowed were missing from
wheels, and --explain's package with its page files.)"""
from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "python" / "shardpy"


def test_every_package_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(("shardpy", *p.parent.relative_to(LIBRARY).parts))
             for p in LIBRARY.rglob("__init__.py")} | {"shardpy.passes", "shardpy.tools"}
    assert set(config["packages"]) == found


def test_package_data_exists():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for package, patterns in config["package-data"].items():
        where = LIBRARY.joinpath(*package.split(".")[1:])
        for pattern in patterns:
            assert list(where.glob(pattern)), f"{package}: nothing matches {pattern}"
